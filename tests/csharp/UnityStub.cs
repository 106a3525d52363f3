// The few UnityEngine/AOT types examples/csharp/HayanagiAnalyzer.cs uses, so that it and
// Hayanagi.cs can be compiled as Unity would (-define:UNITY_5_3_OR_NEWER: the binding then
// uses this AOT.MonoPInvokeCallbackAttribute instead of its own) and driven by
// UnityDriver.cs without Unity.
using System;
using System.Collections.Generic;

namespace AOT
{
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { }
    }
}

namespace UnityEngine
{
    public class MonoBehaviour
    {
    }

    public static class Debug
    {
        public static readonly List<string> Lines = new List<string>();
        public static readonly List<int> Threads = new List<int>();

        public static void Log(object message) { Record("log: " + message); }

        public static void LogWarning(object message) { Record("warning: " + message); }

        static void Record(string line)
        {
            lock (Lines)
            {
                Lines.Add(line);
                Threads.Add(System.Threading.Thread.CurrentThread.ManagedThreadId);
            }
        }
    }
}
