// Tests of bindings/csharp/Hayanagi.cs, compiled together with it by mcs and run with mono
// (scripts/test-bindings.sh). A self-contained runner: each test runs on its own thread
// under a time limit; prints "ok"/"FAIL" per test and "N passed, M failed"; exit status 1
// on any failure.
//
//   mono HayanagiTests.exe              every test
//   mono HayanagiTests.exe Stop Gc      tests whose name contains one of the words
//   mono HayanagiTests.exe --layout     print the native structs' sizes and field offsets
//                                       (compared with the C compiler's by
//                                       tests/bindings/test_header_bindings.py)
//   mono HayanagiTests.exe --exit-while-searching
//                                       the child process of the ExitWhileSearching test
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using Hayanagi;

static class HayanagiTests
{
    const string StartSfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    const string After7g7f = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    // White to move and checkmated.
    const string MatedSfen = "sfen 1p2kg1n1/s+N1+P1s2l/5l2b/pB3pPP1/lP3N3/2NpSg1RL/+pS1P2+p2/3G5/4KG3 w R4P3p 116";
    const string Mate1Sfen = "sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1";
    const string NoMateSfen = "sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1";
    const string Mate3Sfen = "sfen ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42";

    // ----- tiny assertion helpers -----

    class AssertionFailed : Exception
    {
        public AssertionFailed(string m) : base(m) { }
    }

    static void Check(bool cond, string what)
    {
        if (!cond) throw new AssertionFailed(what);
    }

    static void Eq<T>(T expected, T actual, string what)
    {
        if (!EqualityComparer<T>.Default.Equals(expected, actual))
            throw new AssertionFailed(what + ": expected <" + expected + ">, got <" + actual + ">");
    }

    static HayanagiException Throws(Status status, Action a, string what)
    {
        try
        {
            a();
        }
        catch (HayanagiException e)
        {
            if (e.Status != status)
                throw new AssertionFailed(what + ": expected status " + status + ", got " + e.Status + " (" + e.Message + ")");
            Eq((int)status, e.Code, what + ": code");
            Check(e.Message.Contains(Library.StatusString(status)), what + ": message carries the status text: " + e.Message);
            return e;
        }
        throw new AssertionFailed(what + ": expected HayanagiException(" + status + "), nothing thrown");
    }

    static T Await<T>(Task<T> t, int ms, string what)
    {
        if (!t.Wait(ms)) throw new AssertionFailed(what + ": task not completed within " + ms + " ms");
        return t.Result;
    }

    static bool WaitUntil(Func<bool> cond, int ms)
    {
        var sw = Stopwatch.StartNew();
        while (!cond())
        {
            if (sw.ElapsedMilliseconds > ms) return false;
            Thread.Sleep(2);
        }
        return true;
    }

    static string[] LegalMovesOf(string position)
    {
        using (var e = new Engine(1))
        {
            e.SetPosition(position);
            return e.LegalMoves();
        }
    }

    static List<EngineEvent> Drain(Engine e)
    {
        var list = new List<EngineEvent>();
        EngineEvent ev;
        while (e.TryPoll(out ev)) list.Add(ev);
        return list;
    }

    // Written by a handler to make it allocate; read by nobody but must not be optimised away.
    internal static volatile string junkSink;

    // ----- tests -----

    static void Versions()
    {
        Eq(1u, Library.AbiVersion, "abi version");
        Check(Library.AbiCompatible, "abi compatible");
        Check(System.Text.RegularExpressions.Regex.IsMatch(Library.Version, @"^\d+\.\d+\.\d+"), "version " + Library.Version);
        Eq("ok", Library.StatusString(Status.Ok), "status_str(OK)");
        Eq("a search is running", Library.StatusString(Status.Busy), "status_str(BUSY)");
        Eq("unknown status code", Library.StatusString((Status)999), "status_str(999)");
    }

    /// The light position handle: the same answers as an engine's, with no engine.
    static void LightPosition()
    {
        using (var p = new Position())
        {
            Eq(StartSfen, p.Sfen(), "startpos");
            Eq(30, p.LegalMoves().Length, "startpos move count");
            Eq(25470UL, p.Perft(3), "perft 3");
            Check(p.IsLegal("7g7f") && !p.IsLegal("5e5d") && !p.IsLegal("garbage"), "legality");
            Eq(0, p.SideToMove, "black to move");
            p.Play("7g7f");
            Eq(After7g7f, p.Sfen(), "after 7g7f");
            Eq(1, p.SideToMove, "white to move");
            Eq(1u, p.MovesPlayed, "one move played");
            Throws(Status.IllegalMove, () => p.Play("7g7f"), "7g7f again");
            Eq(After7g7f, p.Sfen(), "an illegal move changes nothing");
            p.Undo();
            Eq(StartSfen, p.Sfen(), "undo");
            Throws(Status.InvalidArg, () => p.Undo(), "nothing to undo");
            Throws(Status.Parse, () => p.Set("sfen nonsense"), "bad SFEN");
            Eq(StartSfen, p.Sfen(), "a bad SFEN keeps the position");
            p.Set(MatedSfen);
            int winner;
            Eq(GameState.Checkmate, p.State(out winner), "checkmate");
            Eq(0, winner, "black wins");
            Check(p.InCheck, "mated side is in check");
        }
        Throws(Status.IllegalMove, () => new Position("startpos moves 7g7f 7g7f"), "illegal move list");
    }

    static void PositionHelpers()
    {
        using (var e = new Engine(1))
        {
            Eq(StartSfen, e.Sfen(), "new engine at startpos");
            string[] moves = e.LegalMoves();
            Eq(30, moves.Length, "startpos move count");
            Check(moves.Contains("7g7f") && moves.Contains("2h1h"), "startpos moves");
            Check(moves.SequenceEqual(moves.OrderBy(m => m, StringComparer.Ordinal)), "ASCII order");
            Eq(30UL, e.Perft(1), "perft 1");
            Eq(900UL, e.Perft(2), "perft 2");
            Eq(25470UL, e.Perft(3), "perft 3");
            Check(e.IsLegal("7g7f"), "7g7f legal");
            Check(!e.IsLegal("5e5d"), "5e5d not legal");
            Check(!e.IsLegal("garbage"), "garbage not legal");
            e.SetPosition("startpos moves 7g7f");
            Eq(After7g7f, e.Sfen(), "sfen after 7g7f");
            int winner;
            Eq(GameState.Ongoing, e.GetGameState(out winner), "ongoing");
            Eq(-1, winner, "no winner");
            int v1 = e.Evaluate(), v2 = e.Evaluate();
            Eq(v1, v2, "evaluate deterministic");
            e.SetPosition("startpos moves 7g7f 3c3d 8h2b+");
            Check(e.Evaluate() < -300, "white is a bishop down: " + e.Evaluate());
            e.SetPosition(MatedSfen);
            Eq(GameState.Checkmate, e.GetGameState(out winner), "checkmate");
            Eq(0, winner, "black wins");
            Eq(0, e.LegalMoves().Length, "no legal moves when mated");
            // Non-ASCII text goes in as UTF-8 and comes back in the error message intact.
            var ex = Throws(Status.Parse, () => e.SetPosition("sfen 王"), "non-ASCII SFEN");
            Check(ex.NativeMessage.Length > 0, "parse message present");
            Check(e.LastError.Length > 0, "engine last error");
        }
    }

    static void AnalyseWithCallbacks()
    {
        using (var e = new Engine(8))
        {
            const string pos = "startpos moves 7g7f 3c3d";
            e.SetPosition(pos);
            string[] legal = e.LegalMoves();
            int mainThread = Thread.CurrentThread.ManagedThreadId;
            var infos = new ConcurrentQueue<Info>();
            var threads = new ConcurrentDictionary<int, bool>();
            BestMove fromHandler = null;
            e.InfoReceived += i => { infos.Enqueue(i); threads[Thread.CurrentThread.ManagedThreadId] = true; };
            e.BestMoveReceived += b => { fromHandler = b; threads[Thread.CurrentThread.ManagedThreadId] = true; };
            Check(!e.QueueEvents, "handlers subscribed: no queue by default");
            e.QueueEvents = true; // handlers and the queue

            BestMove best = Await(e.GoAsync(Limits.ToDepth(6)), 60000, "depth-6 search");
            e.Wait();
            Check(legal.Contains(best.Move), "best move " + best.Move + " is legal");
            Check(best.Ponder == null || best.Ponder.Length >= 4, "ponder shape");
            Check(fromHandler != null && fromHandler.Move == best.Move, "handler saw the same best move");
            Check(!threads.ContainsKey(mainThread), "callbacks ran off the calling thread");
            Check(infos.Count > 0, "info reports arrived");
            Eq(6, infos.Max(i => i.Depth), "deepest info depth");
            int prev = 0;
            foreach (var i in infos)
            {
                Check(i.Depth >= prev, "depths do not decrease");
                prev = i.Depth;
                Check(i.UsiLine.StartsWith("info depth " + i.Depth + " "), "usi line " + i.UsiLine);
                Check(i.Pv.Length > 0 && legal.Contains(i.Pv[0]), "pv starts with a legal move: " + string.Join(" ", i.Pv));
                Check(i.UsiLine.Contains(" pv " + string.Join(" ", i.Pv)), "pv in the usi line");
                Eq(1, i.MultiPv, "multipv");
                Check(i.ScoreKind == ScoreKind.Cp && Math.Abs(i.Score) < 2000, "score " + i.Score);
            }
            // The polled queue holds the same infos, then exactly one best move, last.
            var events = Drain(e);
            Eq(infos.Count + 1, events.Count, "queued events");
            Check(events.Take(events.Count - 1).All(ev => ev.Kind == EventKind.Info), "infos first");
            var last = events[events.Count - 1];
            Eq(EventKind.BestMove, last.Kind, "best move last");
            Eq(best.Move, last.BestMove.Move, "queued best move");
            Eq(best.ToString(), last.Text, "best move text");
            Eq(best.Move, e.LastBestMove.Move, "LastBestMove");
            // The table remembers the root.
            TtEntry tt = e.ProbeTt();
            Check(tt != null, "root in the table");
            Check(tt.MoveLegal && legal.Contains(tt.Move), "table move legal: " + tt.Move);
            Check(tt.Depth > 0, "table depth");
            Check(e.ProbeTt("startpos moves 7g7f 3c3d") != null, "probe by position text");
            Check(e.Hashfull() >= 0 && e.Hashfull() <= 1000, "hashfull range");
            e.ClearHash();
            Check(e.ProbeTt() == null, "cleared");
            Check(e.LastHandlerException == null, "no handler exception");
        }
    }

    static void StopEarly()
    {
        using (var e = new Engine(8))
        {
            e.SetPosition("startpos");
            string[] legal = e.LegalMoves();
            var sw = Stopwatch.StartNew();
            Task<BestMove> t = e.GoAsync(Limits.InfiniteSearch());
            Check(WaitUntil(() => e.Poll() != null, 10000), "an info arrives");
            Check(e.IsSearching, "searching");
            Check(!t.IsCompleted, "infinite search does not end by itself");
            Check(!e.Wait(50), "wait times out while searching");
            // While searching: a second search, the position and options are busy.
            Throws(Status.Busy, () => e.Go(Limits.ToDepth(1)), "go while searching");
            Throws(Status.Busy, () => e.GoAsync(Limits.ToDepth(1)), "GoAsync while searching");
            Throws(Status.Busy, () => e.SetPosition("startpos moves 7g7f"), "set_position while searching");
            Throws(Status.Busy, () => e.SetOption("MultiPV", "2"), "set_option while searching");
            Throws(Status.Busy, () => e.NewGame(), "new_game while searching");
            var stopAt = sw.ElapsedMilliseconds;
            e.Stop();
            BestMove best = Await(t, 5000, "stopped search answers");
            Check(sw.ElapsedMilliseconds - stopAt < 3000, "stop answered quickly");
            Check(legal.Contains(best.Move), "stopped best move legal: " + best.Move);
            Check(e.Wait(5000), "wait after stop");
            Check(!e.IsSearching, "idle after stop");
            e.Stop(); // no-op when idle
            Eq(StartSfen, e.Sfen(), "position unchanged by the refused calls");

            // Cancellation through a token stops the search too.
            var cts = new CancellationTokenSource();
            Task<BestMove> t2 = e.GoAsync(Limits.InfiniteSearch(), cts.Token);
            Check(WaitUntil(() => e.IsSearching, 5000), "second search runs");
            Thread.Sleep(50);
            cts.Cancel();
            Check(legal.Contains(Await(t2, 5000, "cancelled search answers").Move), "cancelled best move legal");
            e.Wait();

            // Not polled in between: the first search's events were dropped at the second
            // Go (stale), so the queue holds the second one's best move only.
            var queued = Drain(e);
            Eq(1, queued.Count(ev => ev.Kind == EventKind.BestMove), "the last search's best move only");
            Check(queued.All(ev => ev.SearchId == e.SearchId || ev.SearchId == 0), "no stale event");
            // Stop at once after go: still exactly one best move.
            Task<BestMove> t3 = e.GoAsync(Limits.InfiniteSearch());
            e.Stop();
            Check(legal.Contains(Await(t3, 5000, "immediate stop answers").Move), "immediate stop best move legal");
            e.Wait();
            Eq(1, Drain(e).Count(ev => ev.Kind == EventKind.BestMove), "one best move per go");
        }
    }

    static void ErrorPaths()
    {
        using (var e = new Engine(1))
        {
            e.SetPosition("startpos moves 7g7f");
            // Bad SFENs: PARSE, previous position kept.
            foreach (var bad in new[] {
                "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9 b - 1",
                "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNZ b - 1",
                "sfen", "", "nonsense" })
            {
                Throws(Status.Parse, () => e.SetPosition(bad), "bad sfen '" + bad + "'");
                Eq(After7g7f, e.Sfen(), "position kept after '" + bad + "'");
            }
            // Illegal moves: ILLEGAL_MOVE naming the move and its 0-based index.
            var ex = Throws(Status.IllegalMove, () => e.SetPosition("startpos moves 7g7f 3c3d 5e5d"), "illegal move");
            Check(ex.NativeMessage.Contains("5e5d") && ex.NativeMessage.Contains("move 2 "), "illegal move message: " + ex.NativeMessage);
            Eq(After7g7f, e.Sfen(), "position kept after an illegal move");
            Throws(Status.IllegalMove, () => e.SetPosition("startpos moves P*5e"), "drop not in hand");
            // Options.
            ex = Throws(Status.InvalidArg, () => e.SetOption("NoSuchOption", "1"), "unknown option");
            Check(ex.NativeMessage.Contains("NoSuchOption"), "unknown option message: " + ex.NativeMessage);
            ex = Throws(Status.InvalidArg, () => e.SetOption("MultiPV", "99"), "MultiPV 99");
            Check(ex.NativeMessage.Contains("99"), "value in the message: " + ex.NativeMessage);
            Throws(Status.InvalidArg, () => e.SetOption("Hash", "abc"), "Hash abc");
            Throws(Status.InvalidArg, () => e.SetOption("Threads", 0), "Threads 0");
            Throws(Status.InvalidArg, () => e.SetOption("EnteringKingRule", "Bogus"), "combo value");
            Eq("1", e.Options["MultiPV"], "a refused value leaves the option as it was");
            e.SetOptions(new Dictionary<string, object> { { "MultiPV", 2 }, { "USI_Ponder", false }, { "EnteringKingRule", "TryRule" } });
            Eq("2", e.Options["multipv"], "options dictionary (case-insensitive)");
            Eq("false", e.Options["USI_Ponder"], "bool option formatted");
            Eq(e.GetOption("USI_Hash"), e.GetOption("hash"), "GetOption by alias");
            Eq("TryRule", e.GetOption("enteringkingrule"), "GetOption in any case");
            // The registry: the options USI "usi" prints are the non-hidden enumeration.
            var shown = e.OptionInfos(false);
            var all = e.OptionInfos(true);
            Check(!e.Options.ContainsKey("ParallelMode") && e.GetOption("ParallelMode") == "lazy", "hidden options are settable, not listed");
            int developer = 0, tuning = 0;
            foreach (var o in all) if (o.Hidden) { if (o.Name.StartsWith("Tune_")) tuning++; else developer++; }
            Check(developer == 2 && tuning > 0 && all.Count == shown.Count + developer + tuning, "hidden options: " + all.Count + " vs " + shown.Count);
            OptionInfo hashInfo = null;
            foreach (var o in shown) if (o.Name == "USI_Hash") hashInfo = o;
            Check(hashInfo != null && hashInfo.Type == OptionType.Spin && hashInfo.Min == 1 && hashInfo.Max == 1048576 && hashInfo.Default == "16" && hashInfo.AtReady, "USI_Hash info");
            Check(all[all.Count - 1].Name == "FV_SCALE" || all.Count > 0, "enumeration order");
            var usiNames = new List<string>();
            using (var u = new Engine())
            {
                u.UsiCommand("usi");
                foreach (var line in Drain(u))
                    if (line.Kind == EventKind.UsiOutput && line.Text.StartsWith("option name ")) usiNames.Add(line.Text.Split(' ')[2]);
            }
            var shownNames = new List<string>();
            foreach (var o in shown) shownNames.Add(o.Name);
            Eq(string.Join(",", usiNames), string.Join(",", shownNames), "usi options == enumeration");
            e.Ready();
            // NNUE nets load at Ready(): not an nn.bin is Format, a missing file Io; the
            // evaluation stays the same.
            int before = e.Evaluate();
            string junk = System.IO.Path.GetTempFileName();
            System.IO.File.WriteAllBytes(junk, new byte[64]);
            e.SetOption("EvalFile", junk);
            ex = Throws(Status.Format, () => e.Ready(), "EvalFile not a net");
            Check(ex.NativeMessage.Contains("wrong version") && ex.NativeMessage.Contains(junk), "net error message: " + ex.NativeMessage);
            System.IO.File.Delete(junk);
            e.SetOption("EvalFile", "/nonexistent/hayanagi/nn.bin");
            Throws(Status.Io, () => e.Ready(), "EvalFile missing");
            Throws(Status.InvalidArg, () => e.SetOption("FV_SCALE", 0), "FV_SCALE 0");
            Eq(before, e.Evaluate(), "evaluation kept after failed loads");
            e.SetOption("EvalFile", "");
            e.Ready();
            // Limits.
            Throws(Status.IllegalMove, () => e.Go(new Limits { Depth = 1, SearchMoves = new[] { "3c3d", "5e5d" } }), "bad searchmoves");
            Throws(Status.InvalidArg, () => e.Go(new Limits { Depth = 1, MultiPv = 33 }), "multipv 33");
            Check(!e.IsSearching, "nothing started");
            // Other calls.
            Throws(Status.InvalidArg, () => e.Perft(11), "perft depth 11");
            Throws(Status.Parse, () => e.ProbeTt("nonsense"), "probe bad position");
            Throws(Status.IllegalMove, () => e.ProbeTt("startpos moves 5e5d"), "probe illegal move");
            Throws(Status.InvalidArg, () => e.LastMate(), "no mate search yet");
            EngineEvent ev;
            ex = Throws(Status.InvalidArg, () => e.TryPollNative(out ev), "native events not enabled");
            Check(ex.NativeMessage.Contains("enable_events"), "message names enable_events");
            Throws(Status.InvalidArg, () => new Table(0), "table of 0 MiB");
            try
            {
                e.SetPosition("start\0pos");
                throw new AssertionFailed("embedded NUL accepted");
            }
            catch (ArgumentException)
            {
            }
        }
        // Engine construction errors come through the thread's last error.
        var ce = Throws(Status.InvalidArg, () => new Engine(0, 257), "257 threads");
        Check(ce.NativeMessage.Length > 0, "construction error message");
    }

    static void SearchmovesMultiPvResign()
    {
        using (var e = new Engine(4))
        {
            e.SetPosition("startpos");
            BestMove b = e.Search(new Limits { Depth = 3, SearchMoves = new[] { "2g2f", "1g1f" } });
            Check(b.Move == "2g2f" || b.Move == "1g1f", "searchmoves respected: " + b.Move);
            Drain(e);
            e.Search(new Limits { Depth = 3, MultiPv = 3 });
            var infos = Drain(e).Where(ev => ev.Kind == EventKind.Info).Select(ev => ev.Info).ToList();
            Eq(3, infos.Where(i => i.Depth == 3).Select(i => i.MultiPv).Distinct().Count(), "three lines at depth 3");
            e.SetPosition(MatedSfen);
            BestMove r = e.Search(Limits.ToDepth(3));
            Check(r.IsResign && r.Ponder == null, "mated: resign, got " + r);
        }
    }

    static void DisposeWhileSearching()
    {
        int baseline = Volatile.Read(ref Engine.LiveUserData);
        string[] legal = LegalMovesOf("startpos moves 2g2f");
        var e = new Engine(8);
        Eq(baseline + 5, Volatile.Read(ref Engine.LiveUserData), "five GCHandles handed to the library");
        e.SetPosition("startpos moves 2g2f");
        Task<BestMove> t = e.GoAsync(Limits.InfiniteSearch());
        Check(WaitUntil(() => e.Poll() != null, 10000), "search reports");
        // Another thread blocked in Wait() must not keep Dispose from freeing the engine.
        var waiter = new Thread(() => { try { e.Wait(); } catch (ObjectDisposedException) { } });
        waiter.Start();
        Thread.Sleep(20);
        var sw = Stopwatch.StartNew();
        e.Dispose();
        Check(sw.ElapsedMilliseconds < 5000, "dispose joined quickly: " + sw.ElapsedMilliseconds + " ms");
        Check(waiter.Join(5000), "the waiting thread returned");
        Check(t.IsCompleted, "the pending task completed during Dispose");
        Check(legal.Contains(t.Result.Move), "best move delivered during Dispose is legal: " + t.Result.Move);
        Eq(baseline, Volatile.Read(ref Engine.LiveUserData), "GCHandles released by the library");
        Check(e.IsDisposed, "disposed");
        e.Dispose(); // twice is fine
        try
        {
            e.SetPosition("startpos");
            throw new AssertionFailed("call after Dispose did not throw");
        }
        catch (ObjectDisposedException)
        {
        }
        // Disposing an idle engine, and one that never searched.
        new Engine(1).Dispose();
        Eq(baseline, Volatile.Read(ref Engine.LiveUserData), "idle engine released");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static Task<BestMove> AbandonSearchingEngine(string position)
    {
        var e = new Engine(2);
        e.SetPosition(position);
        Task<BestMove> t = e.GoAsync(Limits.InfiniteSearch());
        if (!WaitUntil(() => e.Poll() != null, 10000)) throw new AssertionFailed("abandoned engine did not report");
        return t; // the engine becomes garbage here, searching
    }

    static void FinalizerWithoutDispose()
    {
        int baseline = Volatile.Read(ref Engine.LiveUserData);
        string[] positions = { "startpos", "startpos moves 7g7f", "startpos moves 2g2f 8c8d" };
        var tasks = new Task<BestMove>[positions.Length];
        // Created on a thread that then exits, so no stale stack slot (mono scans stacks
        // conservatively) keeps the engines alive.
        var th = new Thread(() =>
        {
            for (int k = 0; k < positions.Length; k++) tasks[k] = AbandonSearchingEngine(positions[k]);
        });
        th.Start();
        th.Join();
        Eq(baseline + 5 * positions.Length, Volatile.Read(ref Engine.LiveUserData), "handles of the abandoned engines");
        Check(tasks.All(t => !t.IsCompleted), "still searching before the GC");
        var sw = Stopwatch.StartNew();
        while (Volatile.Read(ref Engine.LiveUserData) != baseline && sw.ElapsedMilliseconds < 20000)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            Thread.Sleep(10);
        }
        Eq(baseline, Volatile.Read(ref Engine.LiveUserData), "finalizers freed every engine and the library released the GCHandles");
        for (int k = 0; k < positions.Length; k++)
        {
            BestMove b = Await(tasks[k], 5000, "abandoned search answered");
            Check(LegalMovesOf(positions[k]).Contains(b.Move), "abandoned search's best move legal: " + b.Move);
        }
    }

    static void GcStressWhileCallbacksFire()
    {
        using (var e = new Engine(4))
        {
            var stopGc = false;
            long collections = 0;
            var gc = new Thread(() =>
            {
                var junk = new List<object>();
                while (!Volatile.Read(ref stopGc))
                {
                    for (int k = 0; k < 200; k++) junk.Add(new byte[64]);
                    if (junk.Count > 20000) junk.Clear();
                    GC.Collect();
                    Interlocked.Increment(ref collections);
                    Thread.Sleep(1);
                }
            });
            gc.Start();
            try
            {
                long infos = 0;
                e.InfoReceived += i => { Interlocked.Increment(ref infos); junkSink = new string('x', 100) + i.Depth; };
                e.QueueEvents = true; // handlers and the queue
                e.SetOption("NetworkDelay", 0);
                e.SetOption("MinimumThinkingTime", 0);
                var rng = new Random(12345);
                int searches = 0, bestmoves = 0;
                var sw = Stopwatch.StartNew();
                while (sw.ElapsedMilliseconds < 6000 || searches < 20)
                {
                    // A fresh position each time (random playout), a cleared table: real work.
                    var played = new List<string>();
                    e.SetPosition("startpos");
                    for (int ply = rng.Next(4, 30); ply > 0; ply--)
                    {
                        string[] ms = e.LegalMoves();
                        if (ms.Length == 0) break;
                        played.Add(ms[rng.Next(ms.Length)]);
                        e.SetPosition("startpos moves " + string.Join(" ", played));
                    }
                    e.NewGame();
                    string[] legal = e.LegalMoves();
                    if (legal.Length == 0) continue;
                    Task<BestMove> t;
                    if (searches % 3 == 2)
                    {
                        t = e.GoAsync(Limits.InfiniteSearch());
                        Thread.Sleep(searches % 7);
                        e.Stop();
                    }
                    else
                    {
                        t = e.GoAsync(searches % 3 == 0 ? Limits.ToDepth(6) : Limits.MoveTime(40));
                    }
                    BestMove b = Await(t, 30000, "search " + searches);
                    e.Wait();
                    Check(legal.Contains(b.Move), "search " + searches + ": legal best move " + b.Move);
                    var events = Drain(e);
                    int n = events.Count(ev => ev.Kind == EventKind.BestMove);
                    Eq(1, n, "search " + searches + ": exactly one best move event");
                    Eq(b.Move, events.Last().BestMove.Move, "search " + searches + ": queued move");
                    bestmoves += n;
                    searches++;
                    if (sw.ElapsedMilliseconds > 20000) break;
                }
                Eq(searches, bestmoves, "no lost best move");
                Check(Interlocked.Read(ref infos) > searches, "infos fired during the stress: " + infos);
                Check(Interlocked.Read(ref collections) > 20, "collections ran: " + collections);
                Console.WriteLine("    {0} searches, {1} infos, {2} collections", searches, infos, collections);
            }
            finally
            {
                Volatile.Write(ref stopGc, true);
                gc.Join();
            }
        }
    }

    static void ReentrantCallsFromHandlers()
    {
        var e = new Engine(1);
        var outcomes = new ConcurrentQueue<string>();
        e.BestMoveReceived += b =>
        {
            try { e.Go(Limits.ToDepth(1)); outcomes.Enqueue("go ok"); }
            catch (HayanagiException x) { outcomes.Enqueue("go " + x.Status); }
            try { e.Wait(); outcomes.Enqueue("wait ok"); }
            catch (HayanagiException x) { outcomes.Enqueue("wait " + x.Status); }
            try { e.Dispose(); outcomes.Enqueue("dispose ok"); }
            catch (HayanagiException x) { outcomes.Enqueue("dispose " + x.Status); }
            e.Stop(); // allowed
            outcomes.Enqueue("stop ok");
        };
        e.Search(Limits.ToDepth(2));
        Eq("go Reentrant|wait Reentrant|dispose Reentrant|stop ok", string.Join("|", outcomes), "calls from a handler");
        Check(!e.IsDisposed, "still usable");
        Eq(30, e.LegalMoves().Length, "still answers");
        // An exception thrown by a handler is caught and kept, the search still answers.
        var f = new Engine(1);
        f.InfoReceived += i => { throw new InvalidOperationException("boom"); };
        Check(f.Search(Limits.ToDepth(2)).Move.Length >= 4, "search answered despite a throwing handler");
        Check(f.LastHandlerException is InvalidOperationException, "handler exception kept");
        f.Dispose();
        e.Dispose();
    }

    static void NativeEventQueue()
    {
        using (var e = new Engine(4))
        {
            e.QueueEvents = false; // only the library's queue
            e.EnableNativeEvents(true);
            e.SetPosition("startpos moves 7g7f");
            string[] legal = e.LegalMoves();
            e.Go(Limits.ToDepth(4));
            var events = new List<EngineEvent>();
            Check(WaitUntil(() =>
            {
                EngineEvent ev;
                while (e.TryPollNative(out ev)) events.Add(ev);
                return events.Count > 0 && events[events.Count - 1].Kind == EventKind.BestMove;
            }, 30000), "polled until the best move");
            e.Wait();
            Check(events.Count >= 2, "infos before the best move");
            foreach (var ev in events.Take(events.Count - 1))
            {
                Eq(EventKind.Info, ev.Kind, "info kind");
                Check(ev.Text.StartsWith("info depth " + ev.Info.Depth + " "), "info text " + ev.Text);
                Check(ev.Info.Pv.Length > 0 && legal.Contains(ev.Info.Pv[0]), "pv parsed from the text");
            }
            Eq(4, events.Where(ev => ev.Kind == EventKind.Info).Max(ev => ev.Info.Depth), "depth 4 reached");
            BestMove b = events[events.Count - 1].BestMove;
            Check(legal.Contains(b.Move), "polled best move legal");
            Eq(e.LastBestMove.Move, b.Move, "same best move as the callback");
            long nid = e.SearchId;
            Check(events.All(ev => ev.SearchId == nid), "every native event carries its search id " + nid);
            long queued, full, stale;
            e.NativeEventCounts(out queued, out full, out stale);
            Eq(0L, queued + full + stale, "nothing queued or dropped");
            EngineEvent none;
            Check(!e.TryPollNative(out none), "queue empty");
            Check(e.Poll() == null, "managed queue disabled");
            e.EnableNativeEvents(false);
        }
    }

    /// Drain up to the best move (the search's last event).
    static List<EngineEvent> DrainToBestMove(Engine e, int timeoutMs)
    {
        var list = new List<EngineEvent>();
        Check(WaitUntil(() =>
        {
            EngineEvent ev;
            while (e.TryPoll(out ev))
            {
                list.Add(ev);
                if (ev.Kind == EventKind.BestMove) return true;
            }
            return false;
        }, timeoutMs), "polled until the best move");
        return list;
    }

    static void EventsCarryTheirSearch()
    {
        using (var e = new Engine(1))
        {
            Check(e.QueueEvents, "a polling host (no handler) queues by default");
            e.SetPosition("startpos moves 7g7f 3c3d");
            Eq(0L, e.SearchId, "no search yet");
            // Nothing lost: every info line of each search, then its one best move, all
            // with its id.
            for (int round = 1; round <= 3; round++)
            {
                long before = e.InfoCallbacks;
                e.Go(Limits.ToDepth(5));
                Eq((long)round, e.SearchId, "search id after Go");
                Check(e.LastBestMove == null || e.IsSearching == false, "LastBestMove is not the previous search's while it runs");
                var events = DrainToBestMove(e, 30000);
                e.Wait();
                var rest = Drain(e);
                Eq(0, rest.Count(ev => ev.Kind != EventKind.Log), "nothing after the best move");
                Check(events.All(ev => ev.SearchId == round), "round " + round + ": every event has its id");
                Eq(e.InfoCallbacks - before, (long)events.Count(ev => ev.Kind == EventKind.Info), "round " + round + ": every info line");
                Eq(1, events.Count(ev => ev.Kind == EventKind.BestMove), "round " + round + ": one best move");
                Eq(e.LastBestMove.Move, events.Last().BestMove.Move, "the polled best move is LastBestMove");
            }
            // Not polled before the next Go: the old search's events never come out.
            e.Go(Limits.ToDepth(4));
            e.Wait();
            long staleBefore = e.StaleEvents;
            Check(e.QueuedEvents > 0, "search 4 queued its events");
            e.Go(Limits.ToDepth(4));
            Check(e.StaleEvents > staleBefore, "Go dropped search 4's events");
            var five = DrainToBestMove(e, 30000);
            Check(five.All(ev => ev.SearchId == 5), "no stale event after Go: " + string.Join(", ", five.Select(ev => ev.SearchId)));
            Eq(1, five.Count(ev => ev.Kind == EventKind.BestMove), "one best move");
            e.Wait();
            // A search of the USI channel makes the older events stale too.
            e.Go(Limits.ToDepth(3));
            e.Wait();
            e.UsiCommand("position startpos");
            e.UsiCommand("go depth 2");
            e.Wait();
            var seven = Drain(e);
            Check(seven.All(ev => ev.SearchId == 7 || ev.SearchId == 0), "only search 7 (USI) after it started: " + string.Join(", ", seven.Select(ev => ev.SearchId)));
            Check(seven.Any(ev => ev.Kind == EventKind.BestMove && ev.SearchId == 7), "the USI search's best move");
            Check(seven.Any(ev => ev.Kind == EventKind.UsiOutput && ev.SearchId == 7 && ev.Text.StartsWith("bestmove")), "its USI line with the id");
        }
    }

    static void QueueEventsFollowsTheApi()
    {
        using (var e = new Engine(1))
        {
            Check(e.QueueEvents, "default: queue (no handler)");
            int infos = 0;
            Action<Info> h = i => Interlocked.Increment(ref infos);
            e.InfoReceived += h;
            Check(!e.QueueEvents, "default: no queue once a handler is subscribed");
            e.Search(Limits.ToDepth(3));
            Check(infos > 0, "the handler ran");
            Eq(0, Drain(e).Count, "nothing queued for a host that takes handlers");
            e.QueueEvents = true;
            e.Search(Limits.ToDepth(3));
            Check(Drain(e).Any(ev => ev.Kind == EventKind.BestMove), "explicitly on: queued as well");
            e.QueueEventsAutomatic();
            Check(!e.QueueEvents, "automatic again");
            e.InfoReceived -= h;
            Check(e.QueueEvents, "no handler left: queue");
            e.QueueEvents = false;
            e.Search(Limits.ToDepth(2));
            Eq(0, Drain(e).Count, "explicitly off");
        }
    }

    static void MateSearch()
    {
        using (var e = new Engine(1))
        {
            e.SetOption("MateHash", 16);
            e.SetPosition(Mate1Sfen);
            MateResult m = Await(e.GoMateAsync(5000), 30000, "mate in 1");
            Eq(MateKind.Found, m.Kind, "mate 1 found");
            Eq("7b6b", string.Join(" ", m.Moves), "mate 1 line");
            Eq(1, m.Plies, "mate 1 plies");
            e.Wait();
            e.SetPosition(Mate3Sfen);
            m = Await(e.GoMateAsync(10000), 30000, "mate in 3");
            e.Wait();
            Eq(MateKind.Found, m.Kind, "mate 3 found");
            Eq(3, m.Plies, "mate 3 plies");
            Check(m.Shortest, "shortest settled");
            Check(e.LegalMoves().Contains(m.Moves[0]), "first mating move legal");
            MateResult last = e.LastMate();
            Eq(string.Join(" ", m.Moves), string.Join(" ", last.Moves), "LastMate agrees");
            Eq(m.Plies, last.Plies, "LastMate plies");
            e.SetPosition(NoMateSfen);
            m = Await(e.GoMateAsync(5000), 30000, "no mate");
            e.Wait();
            Eq(MateKind.NoMate, m.Kind, "no mate");
            Eq(0, m.Moves.Length, "no moves");
            var kinds = Drain(e).Select(ev => ev.Kind).ToList();
            // Three mate searches, not polled in between: the last one's answer only.
            Eq(1, kinds.Count(k => k == EventKind.Mate), "the last mate search's event");
            Eq(0, kinds.Count(k => k == EventKind.BestMove), "never a best move");
        }
    }

    static void SharedTableAndUsiChannel()
    {
        using (var table = new Table(4))
        using (var a = new Engine(1))
        using (var b = new Engine(1))
        {
            a.SetTable(table);
            b.SetTable(table);
            a.SetPosition("startpos moves 7g7f");
            a.Search(Limits.ToDepth(5));
            Check(b.ProbeTt("startpos moves 7g7f") != null, "b sees what a stored");
            Check(b.Hashfull() >= 0, "hashfull");

            b.UsiCommand("usi");
            b.UsiCommand("isready");
            var lines = Drain(b).Where(ev => ev.Kind == EventKind.UsiOutput).Select(ev => ev.Text).ToList();
            Check(lines.Contains("usiok"), "usiok: " + string.Join("|", lines));
            Check(lines.Contains("readyok"), "readyok");
            Check(lines.Any(l => l.StartsWith("id name ")), "id name");
            b.UsiCommand("position startpos moves 2g2f\ngo depth 3");
            Check(b.Wait(30000), "channel search ends");
            lines = Drain(b).Where(ev => ev.Kind == EventKind.UsiOutput).Select(ev => ev.Text).ToList();
            Check(lines.Any(l => l.StartsWith("bestmove ")), "bestmove on the channel: " + string.Join("|", lines));
            // A structured search after a channel search works (the wrapper waits for it).
            string[] legal = LegalMovesOf("startpos moves 2g2f");
            Check(legal.Contains(b.Search(Limits.ToDepth(2)).Move), "structured search after the channel");
        }
    }

    static void ExitWhileSearching()
    {
        // A child process that returns from Main with an engine searching and never
        // disposed: the ProcessExit hook must stop and free it (mono used to hang there
        // forever), and its best move is still delivered.
        string mono = Process.GetCurrentProcess().MainModule.FileName;
        string exe = typeof(HayanagiTests).Assembly.Location;
        var psi = new ProcessStartInfo(mono, "--debug \"" + exe + "\" --exit-while-searching")
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
        };
        using (var p = Process.Start(psi))
        {
            Task<string> read = p.StandardOutput.ReadToEndAsync();
            if (!p.WaitForExit(20000))
            {
                p.Kill();
                throw new AssertionFailed("the child did not exit within 20 s (hung at exit with a search running)");
            }
            string output = read.Result;
            Eq(0, p.ExitCode, "child exit code");
            var lines = output.Split(new[] { '\n' }, StringSplitOptions.RemoveEmptyEntries);
            Check(lines.Length == 2 && lines[0] == "searching" && lines[1].StartsWith("bestmove "), "child output: " + output);
            Check(LegalMovesOf("startpos moves 7g7f").Contains(lines[1].Split(' ')[1]), "child best move legal: " + lines[1]);
        }
    }

    static int ChildExitWhileSearching()
    {
        var e = new Engine(2);
        e.SetPosition("startpos moves 7g7f");
        e.BestMoveReceived += b => { Console.WriteLine(b.Move == null ? "none" : "bestmove " + b.Move); Console.Out.Flush(); };
        e.QueueEvents = true; // a handler and polling
        e.Go(Limits.InfiniteSearch());
        if (!WaitUntil(() => e.Poll() != null, 10000)) return 3;
        Console.WriteLine("searching");
        Console.Out.Flush();
        GC.KeepAlive(e);
        return 0; // not disposed
    }

    // ----- layout dump for the header test -----

    static void DumpLayout()
    {
        var structs = new[]
        {
            Tuple.Create("hayanagi_limits", typeof(Hayanagi.Native.NativeLimits)),
            Tuple.Create("hayanagi_engine_config", typeof(Hayanagi.Native.NativeEngineConfig)),
            Tuple.Create("hayanagi_mate_result", typeof(Hayanagi.Native.NativeMateResult)),
            Tuple.Create("hayanagi_option_info", typeof(Hayanagi.Native.NativeOptionInfo)),
            Tuple.Create("hayanagi_info", typeof(Hayanagi.Native.NativeInfo)),
            Tuple.Create("hayanagi_event", typeof(Hayanagi.Native.NativeEvent)),
            Tuple.Create("hayanagi_event2", typeof(Hayanagi.Native.NativeEvent2)),
            Tuple.Create("hayanagi_event_stats", typeof(Hayanagi.Native.NativeEventStats)),
            Tuple.Create("hayanagi_tt_probe", typeof(Hayanagi.Native.NativeTtProbe)),
        };
        foreach (var s in structs)
        {
            Console.WriteLine("{0} {1}", s.Item1, Marshal.SizeOf(s.Item2));
            foreach (var f in s.Item2.GetFields())
                Console.WriteLine("{0}.{1} {2}", s.Item1, f.Name, Marshal.OffsetOf(s.Item2, f.Name).ToInt64());
        }
    }

    // ----- runner -----

    static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "--layout")
        {
            DumpLayout();
            return 0;
        }
        if (args.Length == 1 && args[0] == "--exit-while-searching") return ChildExitWhileSearching();
        var tests = new List<Tuple<string, Action>>
        {
            Tuple.Create("Versions", (Action)Versions),
            Tuple.Create("PositionHelpers", (Action)PositionHelpers),
            Tuple.Create("LightPosition", (Action)LightPosition),
            Tuple.Create("AnalyseWithCallbacks", (Action)AnalyseWithCallbacks),
            Tuple.Create("StopEarly", (Action)StopEarly),
            Tuple.Create("ErrorPaths", (Action)ErrorPaths),
            Tuple.Create("SearchmovesMultiPvResign", (Action)SearchmovesMultiPvResign),
            Tuple.Create("DisposeWhileSearching", (Action)DisposeWhileSearching),
            Tuple.Create("FinalizerWithoutDispose", (Action)FinalizerWithoutDispose),
            Tuple.Create("GcStressWhileCallbacksFire", (Action)GcStressWhileCallbacksFire),
            Tuple.Create("ReentrantCallsFromHandlers", (Action)ReentrantCallsFromHandlers),
            Tuple.Create("NativeEventQueue", (Action)NativeEventQueue),
            Tuple.Create("MateSearch", (Action)MateSearch),
            Tuple.Create("EventsCarryTheirSearch", (Action)EventsCarryTheirSearch),
            Tuple.Create("QueueEventsFollowsTheApi", (Action)QueueEventsFollowsTheApi),
            Tuple.Create("SharedTableAndUsiChannel", (Action)SharedTableAndUsiChannel),
            Tuple.Create("ExitWhileSearching", (Action)ExitWhileSearching),
        };
        int passed = 0, failed = 0;
        var total = Stopwatch.StartNew();
        foreach (var t in tests)
        {
            if (args.Length > 0 && !args.Any(a => t.Item1.IndexOf(a, StringComparison.OrdinalIgnoreCase) >= 0)) continue;
            Exception error = null;
            var sw = Stopwatch.StartNew();
            var th = new Thread(() =>
            {
                try { t.Item2(); }
                catch (Exception e) { error = e; }
            });
            th.Start();
            if (!th.Join(120000))
            {
                Console.WriteLine("FAIL {0}: timed out after 120 s", t.Item1);
                Console.WriteLine("{0} passed, {1} failed", passed, failed + 1);
                Console.Out.Flush();
                Environment.Exit(1);
            }
            if (error == null)
            {
                passed++;
                Console.WriteLine("ok   {0} ({1} ms)", t.Item1, sw.ElapsedMilliseconds);
            }
            else
            {
                failed++;
                Console.WriteLine("FAIL {0} ({1} ms): {2}", t.Item1, sw.ElapsedMilliseconds,
                                  error is AssertionFailed ? error.Message : error.ToString());
            }
        }
        Console.WriteLine("{0} passed, {1} failed ({2} ms)", passed, failed, total.ElapsedMilliseconds);
        return failed == 0 ? 0 : 1;
    }
}
