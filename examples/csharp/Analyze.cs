// Analyse a position through the C# binding: info lines as they arrive, then the best move.
//
//   mcs -out:analyze.exe bindings/csharp/Hayanagi.cs examples/csharp/Analyze.cs
//   cp target/release/libhayanagi.so .      # or LD_LIBRARY_PATH=target/release
//   mono analyze.exe ["startpos moves 7g7f 3c3d"] [movetime_ms]
//
// The search runs on the engine's thread; its callbacks only queue events, which this
// (main) thread drains, the way a game loop would in Update().
using System;
using System.Threading;
using System.Threading.Tasks;
using Hayanagi;

static class Analyze
{
    static int Main(string[] args)
    {
        string position = args.Length > 0 ? args[0] : "startpos";
        long movetime = args.Length > 1 ? long.Parse(args[1]) : 3000;
        try
        {
            using (var engine = new Engine())
            {
                engine.SetPosition(position);
                Task<BestMove> best = engine.GoAsync(Limits.MoveTime(movetime));
                while (true)
                {
                    EngineEvent ev;
                    while (engine.TryPoll(out ev))
                    {
                        if (ev.Kind == EventKind.Info) Console.WriteLine(ev.Text);
                        else if (ev.Kind == EventKind.Log) Console.Error.WriteLine("log: " + ev.Text);
                    }
                    if (best.IsCompleted) break;
                    Thread.Sleep(10);
                }
                Console.WriteLine(best.Result);
            }
            return 0;
        }
        catch (HayanagiException e)
        {
            Console.Error.WriteLine("analyze: " + e.Message);
            return 2;
        }
    }
}
