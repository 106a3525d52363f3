// Compiled with -define:HAYANAGI_TEST_MISSING_LIBRARY (Hayanagi.cs then imports a library
// that does not exist) by scripts/test-bindings.sh: the first native call must throw a
// DllNotFoundException that says where the library must go, for every entry point a host
// calls first (new Engine, Library.Version, Library.AbiVersion). Exit status 1 on failure.
using System;
using Hayanagi;

static class MissingLibrary
{
    static int failures;

    static void Expect(string what, Action a)
    {
        try
        {
            a();
            Console.WriteLine("FAIL {0}: no exception", what);
            failures++;
        }
        catch (DllNotFoundException e)
        {
            string m = e.Message;
            bool ok = m.Contains("Assets/Plugins/x86_64/libhayanagi.so") && m.Contains("Assets/Plugins/x86_64/hayanagi.dll")
                && m.Contains("libhayanagi.dylib") && m.Contains("next to the executable") && m.Contains(Library.NativeFileName)
                && e.InnerException is DllNotFoundException;
            Console.WriteLine("{0} {1}: {2}", ok ? "ok  " : "FAIL", what, m);
            if (!ok) failures++;
        }
    }

    static int Main()
    {
        Expect("new Engine()", () => new Engine().Dispose());
        Expect("Library.Version", () => Console.WriteLine(Library.Version));
        Expect("Library.AbiVersion", () => Console.WriteLine(Library.AbiVersion));
        Console.WriteLine(failures == 0 ? "missing library: ok" : "missing library: FAILED");
        return failures == 0 ? 0 : 1;
    }
}
