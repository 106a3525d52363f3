// Drives examples/csharp/HayanagiAnalyzer.cs like Unity's player loop: Start() once, then
// Update() at about 60 frames a second; after a few frames the position changes
// (Analyse(), as after a move on the board: the first search is stopped with its best move
// still queued), then Update() until the best move shows, then OnDestroy(). Checks that
// every Debug.Log ran on the main thread, that info lines came before the best move, that
// the first search's best move never showed (one best move line, legal in the new
// position) and that the best move is legal. Exit status 1 on failure.
using System;
using System.Linq;
using System.Reflection;
using System.Threading;
using Hayanagi;

static class UnityDriver
{
    static void Call(object o, string method)
    {
        o.GetType().GetMethod(method, BindingFlags.Instance | BindingFlags.NonPublic | BindingFlags.Public).Invoke(o, null);
    }

    static int Main()
    {
        var c = new HayanagiAnalyzer { position = "startpos moves 7g7f 3c3d", moveTimeMs = 500 };
        int main = Thread.CurrentThread.ManagedThreadId;
        Call(c, "Start");
        for (int i = 0; i < 3; i++)
        {
            Call(c, "Update");
            Thread.Sleep(16);
        }
        // A move was played: analyse the new position. The old search's best move is queued
        // when Analyse returns (it waits for it) and must never reach Update().
        const string second = "startpos moves 7g7f 3c3d 2g2f";
        c.Analyse(second);
        int frames = 0;
        var start = DateTime.UtcNow;
        while (c.bestMove == "" && (DateTime.UtcNow - start).TotalSeconds < 30)
        {
            Call(c, "Update");
            frames++;
            Thread.Sleep(16);
        }
        Call(c, "Update");
        Call(c, "OnDestroy");
        string[] legal;
        using (var e = new Engine(1))
        {
            e.SetPosition(c.position);
            legal = e.LegalMoves();
        }
        var lines = UnityEngine.Debug.Lines;
        var problems = new System.Collections.Generic.List<string>();
        if (c.position != second) problems.Add("the position did not change");
        int bestLines = lines.Count(l => l.StartsWith("log: bestmove"));
        if (bestLines != 1) problems.Add(bestLines + " best move lines shown (the old search's best move came out)");
        if (!legal.Contains(c.bestMove)) problems.Add("best move '" + c.bestMove + "' is not legal");
        if (c.infoCount == 0) problems.Add("no info line reached Update()");
        if (UnityEngine.Debug.Threads.Any(t => t != main)) problems.Add("Debug.Log ran off the main thread");
        if (lines.Count == 0 || !lines[lines.Count - 1].StartsWith("log: bestmove " + c.bestMove)) problems.Add("the best move is not the last line");
        if (frames < 5) problems.Add("the search did not span several frames (" + frames + ")");
        Console.WriteLine("unity driver: {0} frames, {1} info lines, {2}", frames, c.infoCount, lines.LastOrDefault());
        foreach (var p in problems) Console.WriteLine("FAIL " + p);
        Console.WriteLine(problems.Count == 0 ? "unity driver: ok" : "unity driver: FAILED");
        return problems.Count == 0 ? 0 : 1;
    }
}
