// Hayanagi.cs: C# binding of the hayanagi C API (include/hayanagi.h) for Mono, .NET and
// Unity (Mono and IL2CPP backends). One file, no dependencies beyond mscorlib/System.
//
//   using (var engine = new Hayanagi.Engine())
//   {
//       engine.SetPosition("startpos moves 7g7f 3c3d");
//       engine.Go(Limits.MoveTime(1000));
//       BestMove best = null;   // the best move is the search's last event: drain up to it
//       while (best == null)
//       {
//           EngineEvent ev;
//           while (best == null && engine.TryPoll(out ev))
//               if (ev.Kind == EventKind.BestMove) best = ev.BestMove; else Print(ev);
//           if (best == null) Thread.Sleep(10);
//       }
//       Console.WriteLine(best);
//   }
//
// Design (see bindings/csharp/README.md for the Unity notes)
//   - Native calls are [DllImport] with CallingConvention.Cdecl; strings go in as
//     NUL-terminated UTF-8 byte[] and come out through caller buffers (grown on
//     HAYANAGI_BUFFER_TOO_SMALL), never through LPUTF8Str (missing in older Unity Mono).
//   - The engine handle is a SafeHandle (EngineHandle) whose ReleaseHandle calls
//     hayanagi_engine_free, so an Engine that is never disposed is still freed by its
//     finalizer (the library stops and joins a running search there; its best move is
//     still delivered).
//   - Callbacks are static methods marked [MonoPInvokeCallback] (required by IL2CPP); their
//     delegates live in static fields so the GC never collects them. The per-engine state
//     (event queue, pending tasks) is found through a GCHandle passed as user_data; the
//     library releases each GCHandle through the user_data_free callback when the engine is
//     freed. The state never references the Engine, so the Engine stays collectable.
//   - Callbacks run on the engine's search thread. By default they only enqueue events;
//     the caller drains them with TryPoll()/Poll() (Unity: in Update()). The optional C#
//     events InfoReceived/BestMoveReceived/MateReceived/LogReceived run on the search
//     thread: keep them short, never touch Unity objects from them, and do not capture the
//     Engine in them (that would keep it alive until Dispose). QueueEvents follows the API
//     the host uses: events are queued while no such handler is subscribed (a polling
//     host), not once one is (a host taking handlers, which never polls, queues nothing);
//     setting QueueEvents makes it explicit.
//   - Every event carries the id of its search (EngineEvent.SearchId, Engine.SearchId; the
//     library's hayanagi_engine_callback_search_id). Go/GoAsync/GoMate drop the queued
//     events of earlier searches, and TryPoll never returns one once a later search has
//     started (also one started on the USI channel): a game's Update() loop never shows
//     the previous search's best move after the next Go.
//   - A missing native library surfaces as a DllNotFoundException whose message says where
//     the file must go (Library.NotFoundHelp).
//   - Every failing call throws HayanagiException carrying the status code and message.
//   - Thread safety is the C API's: every method may be called from any thread; one search
//     at a time per engine (a second Go while searching throws Status.Busy).
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

#if !UNITY_5_3_OR_NEWER
namespace AOT
{
    /// <summary>Marks a static method that native code calls through a function pointer.
    /// Unity (IL2CPP) ships this attribute; elsewhere it is defined here so the same source
    /// compiles everywhere.</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { Type = type; }
        public Type Type { get; private set; }
    }
}
#endif

namespace Hayanagi
{
    using AOT;

    /// <summary>Status codes of the C API (HAYANAGI_*).</summary>
    public enum Status
    {
        Ok = 0,
        NullArg = 1,
        InvalidArg = 2,
        Parse = 3,
        IllegalMove = 4,
        Busy = 5,
        Reentrant = 6,
        BufferTooSmall = 7,
        Timeout = 8,
        Io = 9,
        Format = 10,
        Panic = 11,
        Poisoned = 12,
        NoMemory = 13,
    }

    /// <summary>A failed native call: the status code and the library's message.</summary>
    public class HayanagiException : Exception
    {
        public HayanagiException(Status status, string nativeMessage)
            : base(Compose(status, nativeMessage))
        {
            Status = status;
            NativeMessage = nativeMessage ?? "";
        }

        /// <summary>The HAYANAGI_* status (never Ok).</summary>
        public Status Status { get; private set; }
        /// <summary>The numeric status code.</summary>
        public int Code { get { return (int)Status; } }
        /// <summary>The library's message for the failure (may be empty).</summary>
        public string NativeMessage { get; private set; }

        static string Compose(Status status, string message)
        {
            string s = Library.StatusString(status) + " (" + status + ")";
            return string.IsNullOrEmpty(message) ? s : s + ": " + message;
        }
    }

    public enum ScoreKind { Cp = 0, Mate = 1 }
    public enum Bound { Exact = 0, Lower = 1, Upper = 2 }
    public enum MateKind { Found = 1, NoMate = 2, Timeout = 3 }
    public enum GameState { Ongoing = 0, Draw = 1, Checkmate = 2, PerpetualCheck = 3, Declaration = 4 }
    public enum EventKind { Info = 1, BestMove = 2, Mate = 3, Log = 4, UsiOutput = 5 }
    public enum OptionType { Spin = 0, Check = 1, Combo = 2, String = 3, Filename = 4 }

    /// <summary>One engine option as the engine's option registry describes it.</summary>
    public sealed class OptionInfo
    {
        public string Name;
        public OptionType Type;
        /// <summary>The default value as SetOption takes it ("true"/"false" for a check).</summary>
        public string Default;
        /// <summary>The range of a spin option (0 otherwise).</summary>
        public long Min, Max;
        /// <summary>The words of a combo option (empty otherwise).</summary>
        public string[] Choices;
        /// <summary>A developer or tuning option, not shown by USI "usi".</summary>
        public bool Hidden;
        /// <summary>Checked when set, used at the next Ready() (table size, files).</summary>
        public bool AtReady;
        public string Help;
        public override string ToString() { return Name + " (" + Type + ", default " + Default + ")"; }
    }

    /// <summary>One info report of a search.</summary>
    public sealed class Info
    {
        public int Depth;
        public int SelDepth;
        public int MultiPv;
        public ScoreKind ScoreKind;
        /// <summary>Centipawns, or plies to mate (negative: being mated).</summary>
        public int Score;
        public Bound Bound;
        public ulong Nodes;
        public ulong Nps;
        public ulong TimeMs;
        public int Hashfull;
        /// <summary>The principal variation (USI moves).</summary>
        public string[] Pv;
        /// <summary>The same report as a USI "info ..." line.</summary>
        public string UsiLine;

        public override string ToString() { return UsiLine ?? ""; }
    }

    /// <summary>The answer of a search: a USI move, "resign" or "win".</summary>
    public sealed class BestMove
    {
        public BestMove(string move, string ponder)
        {
            Move = move;
            Ponder = ponder;
        }

        public string Move { get; private set; }
        /// <summary>The expected reply, or null.</summary>
        public string Ponder { get; private set; }
        public bool IsResign { get { return Move == "resign"; } }
        public bool IsWin { get { return Move == "win"; } }

        public override string ToString()
        {
            return Ponder == null ? "bestmove " + Move : "bestmove " + Move + " ponder " + Ponder;
        }
    }

    /// <summary>The answer of a mate search.</summary>
    public sealed class MateResult
    {
        public MateKind Kind;
        /// <summary>Length of the mating line in plies (0 unless found).</summary>
        public int Plies;
        /// <summary>True when no shorter mate exists.</summary>
        public bool Shortest;
        public ulong Nodes;
        public ulong TimeMs;
        /// <summary>The mating line (USI moves; empty unless found).</summary>
        public string[] Moves;

        public override string ToString()
        {
            switch (Kind)
            {
                case MateKind.Found: return "checkmate " + string.Join(" ", Moves);
                case MateKind.NoMate: return "checkmate nomate";
                default: return "checkmate timeout";
            }
        }
    }

    /// <summary>What the transposition table holds for a position.</summary>
    public sealed class TtEntry
    {
        /// <summary>The stored move in USI ("" when none).</summary>
        public string Move;
        /// <summary>True when the move was checked legal in the probed position.</summary>
        public bool MoveLegal;
        public ScoreKind ScoreKind;
        public int Score;
        public int Depth;
        public Bound Bound;
        public int Generation;
    }

    /// <summary>An event queued by the engine's callbacks, drained with Engine.TryPoll.</summary>
    public sealed class EngineEvent
    {
        public EventKind Kind;
        /// <summary>The search the event belongs to (Engine.SearchId after its Go: 1, 2, ...);
        /// 0 for a log message or USI line not tied to a search.</summary>
        public long SearchId;
        /// <summary>For EventKind.Info.</summary>
        public Info Info;
        /// <summary>For EventKind.BestMove.</summary>
        public BestMove BestMove;
        /// <summary>For EventKind.Mate.</summary>
        public MateResult Mate;
        /// <summary>The USI text of the event ("info ...", "bestmove ...", "checkmate ..."),
        /// the log message, or the USI output line.</summary>
        public string Text;

        public override string ToString() { return Kind + " #" + SearchId + ": " + Text; }
    }

    /// <summary>Search limits. Unset (null/false) means no such limit; with nothing set the
    /// search is infinite (until Stop).</summary>
    public sealed class Limits
    {
        public long? BlackTimeMs;
        public long? WhiteTimeMs;
        public long? BlackIncMs;
        public long? WhiteIncMs;
        public long? ByoyomiMs;
        public long? MoveTimeMs;
        public int? MovesToGo;
        public int? Depth;
        public long? Nodes;
        public bool Infinite;
        public bool Ponder;
        /// <summary>1-32; null for the MultiPV option.</summary>
        public int? MultiPv;
        /// <summary>USI moves the root is restricted to, or null.</summary>
        public string[] SearchMoves;

        public static Limits MoveTime(long ms) { return new Limits { MoveTimeMs = ms }; }
        public static Limits ToDepth(int depth) { return new Limits { Depth = depth }; }
        public static Limits NodeCount(long nodes) { return new Limits { Nodes = nodes }; }
        public static Limits InfiniteSearch() { return new Limits { Infinite = true }; }
    }

    /// <summary>Library-wide calls.</summary>
    public static class Library
    {
        /// <summary>The ABI version this file was written for (HAYANAGI_ABI_VERSION).</summary>
        public const uint ExpectedAbiVersion = 1;

        /// <summary>The ABI version of the loaded library.</summary>
        public static uint AbiVersion
        {
            get
            {
                try { return Native.hayanagi_abi_version(); }
                catch (DllNotFoundException e) { throw NotFound(e); }
            }
        }

        /// <summary>The native library's file name on this platform.</summary>
        public static string NativeFileName
        {
            get
            {
                if (Path.DirectorySeparatorChar == '\\') return "hayanagi.dll";
                return IsMac ? "libhayanagi.dylib" : "libhayanagi.so";
            }
        }

        static bool IsMac
        {
            get
            {
                // Mono reports macOS as Unix; its system folders tell it apart.
                return Environment.OSVersion.Platform == PlatformID.MacOSX
                    || (Environment.OSVersion.Platform == PlatformID.Unix && Directory.Exists("/System/Library/CoreServices"));
            }
        }

        /// <summary>Where the native library must be for this binding to find it.</summary>
        public static string NotFoundHelp
        {
            get
            {
                return "the native library " + NativeFileName + " (built by `cargo clib --release` into target/release/) was not found. "
                    + "Put it where the runtime looks: in a Unity project Assets/Plugins/x86_64/libhayanagi.so (Linux), "
                    + "Assets/Plugins/x86_64/hayanagi.dll (Windows) or Assets/Plugins/macOS/libhayanagi.dylib (macOS), "
                    + "with that platform and CPU ticked in the plugin's import settings (restart the Editor after replacing it; "
                    + "iOS/tvOS link libhayanagi.a statically, see bindings/unity/README.md); "
                    + "outside Unity next to the executable (" + AppDomain.CurrentDomain.BaseDirectory + ") "
                    + "or on the loader's path (LD_LIBRARY_PATH, DYLD_LIBRARY_PATH, PATH).";
            }
        }

        /// <summary>The exception to throw for a missing library: the same type, with
        /// NotFoundHelp and the runtime's message.</summary>
        internal static DllNotFoundException NotFound(DllNotFoundException e)
        {
            return new DllNotFoundException("hayanagi: " + NotFoundHelp + " (" + e.Message + ")", e);
        }

        /// <summary>True when the loaded library has the ABI this file was written for.</summary>
        public static bool AbiCompatible { get { return AbiVersion == ExpectedAbiVersion; } }

        /// <summary>The library version, e.g. "0.1.0".</summary>
        public static string Version
        {
            get
            {
                try { return Utf8.FromNative(Native.hayanagi_version_string()); }
                catch (DllNotFoundException e) { throw NotFound(e); }
            }
        }

        /// <summary>A static description of a status code.</summary>
        public static string StatusString(Status status)
        {
            return Utf8.FromNative(Native.hayanagi_status_str((int)status));
        }

        /// <summary>The message of the last failure on the calling thread.</summary>
        public static string LastError()
        {
            return Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_last_error(b, c, out l), 256, null);
        }

        internal static void Check(int status)
        {
            if (status != 0) throw new HayanagiException((Status)status, LastError());
        }
    }

    /// <summary>UTF-8 conversions and caller-buffer copies.</summary>
    internal static class Utf8
    {
        internal delegate int Fill(byte[] buf, UIntPtr cap, out UIntPtr len);

        /// <summary>A NUL-terminated UTF-8 copy of s (null stays null).</summary>
        internal static byte[] ToNative(string s)
        {
            if (s == null) return null;
            if (s.IndexOf('\0') >= 0) throw new ArgumentException("string contains a NUL character");
            int n = Encoding.UTF8.GetByteCount(s);
            var b = new byte[n + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, b, 0);
            return b;
        }

        /// <summary>The NUL-terminated UTF-8 string at p (null for NULL).</summary>
        internal static string FromNative(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            int len = 0;
            while (Marshal.ReadByte(p, len) != 0) len++;
            var b = new byte[len];
            Marshal.Copy(p, b, 0, len);
            return Encoding.UTF8.GetString(b);
        }

        internal static string FromBuffer(byte[] b, int len)
        {
            return Encoding.UTF8.GetString(b, 0, len);
        }

        /// <summary>Call fill until the text fits; throws on failure (through check, or
        /// Library.Check when check is null).</summary>
        internal static string CopyOut(Fill fill, int initial, Action<int> check)
        {
            var buf = new byte[Math.Max(initial, 1)];
            for (int attempt = 0; attempt < 8; attempt++)
            {
                UIntPtr len;
                int st = fill(buf, (UIntPtr)buf.Length, out len);
                if (st == 0) return FromBuffer(buf, checked((int)len.ToUInt64()));
                if (st != (int)Status.BufferTooSmall)
                {
                    if (check != null) check(st); else Library.Check(st);
                }
                // The text may grow between calls: retry with the size reported.
                buf = new byte[Math.Max(checked((int)len.ToUInt64()) + 1, buf.Length * 2)];
            }
            throw new HayanagiException(Status.BufferTooSmall, "the text kept growing");
        }

        internal static string[] SplitMoves(string s)
        {
            if (string.IsNullOrEmpty(s)) return new string[0];
            return s.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
        }
    }

    /// <summary>Owns a hayanagi_engine*; releasing it calls hayanagi_engine_free.</summary>
    public sealed class EngineHandle : SafeHandle
    {
        EngineHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            // Stops and joins a running search (its best move is still delivered), then
            // releases the callbacks' user data (the GCHandles). Runs on the thread that
            // disposes the Engine, or on the finalizer thread.
            return Native.hayanagi_engine_free(handle) == 0;
        }
    }

    /// <summary>Owns a hayanagi_table*; releasing it calls hayanagi_table_free.</summary>
    public sealed class TableHandle : SafeHandle
    {
        TableHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            return Native.hayanagi_table_free(handle) == 0;
        }
    }

    /// <summary>A transposition table that several engines can share (Engine.SetTable).
    /// Engines using it keep it alive, so it may be disposed before them.</summary>
    public sealed class Table : IDisposable
    {
        readonly TableHandle handle;

        /// <summary>A table of sizeMib MiB (1 to 1048576).</summary>
        public Table(uint sizeMib)
        {
            TableHandle h;
            int st = Native.hayanagi_table_new(sizeMib, out h);
            if (st != 0)
            {
                string msg = Library.LastError();
                h.Dispose();
                throw new HayanagiException((Status)st, msg);
            }
            handle = h;
        }

        internal TableHandle Handle { get { return handle; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>Owns a hayanagi_position*; releasing it calls hayanagi_position_free.</summary>
    public sealed class PositionHandle : SafeHandle
    {
        PositionHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            return Native.hayanagi_position_free(handle) == 0;
        }
    }

    /// <summary>A position for rules queries without an engine (legal moves, SFEN, playing
    /// and taking back moves, perft, game state): what a board UI needs to check the
    /// player's moves. A few kilobytes, created in microseconds.</summary>
    public sealed class Position : IDisposable
    {
        readonly PositionHandle handle;

        /// <summary>"startpos" or "sfen ..." (optionally followed by "moves ..."), as for
        /// Engine.SetPosition; null is the start position.</summary>
        public Position(string position = null)
        {
            PositionHandle h;
            int st = Native.hayanagi_position_new(Utf8.ToNative(position), out h);
            if (st != 0)
            {
                string msg = Library.LastError();
                h.Dispose();
                throw new HayanagiException((Status)st, msg);
            }
            handle = h;
        }

        /// <summary>Replace the position (the previous one is kept on failure).</summary>
        public void Set(string position)
        {
            if (position == null) throw new ArgumentNullException("position");
            Library.Check(Native.hayanagi_position_set(handle, Utf8.ToNative(position)));
        }

        /// <summary>Play a USI move; HayanagiException IllegalMove (nothing changes) when it
        /// is not legal.</summary>
        public void Play(string usiMove)
        {
            if (usiMove == null) throw new ArgumentNullException("usiMove");
            Library.Check(Native.hayanagi_position_play(handle, Utf8.ToNative(usiMove)));
        }

        /// <summary>Take back the last move; InvalidArg when none is left.</summary>
        public void Undo() { Library.Check(Native.hayanagi_position_undo(handle)); }

        /// <summary>Moves played since the position was set (what Undo can take back).</summary>
        public uint MovesPlayed
        {
            get { uint n; Library.Check(Native.hayanagi_position_moves_played(handle, out n)); return n; }
        }

        /// <summary>The current position as SFEN.</summary>
        public string Sfen()
        {
            return Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_position_sfen(handle, b, c, out l), 128, null);
        }

        /// <summary>The legal moves, USI, in ASCII order.</summary>
        public string[] LegalMoves()
        {
            return Utf8.SplitMoves(Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_position_legal_moves(handle, b, c, out l), 1024, null));
        }

        /// <summary>Is the USI move legal here? Malformed text is not.</summary>
        public bool IsLegal(string usiMove)
        {
            if (usiMove == null) throw new ArgumentNullException("usiMove");
            byte b;
            Library.Check(Native.hayanagi_position_is_legal(handle, Utf8.ToNative(usiMove), out b));
            return b != 0;
        }

        /// <summary>0 when black (sente) is to move, 1 for white (gote).</summary>
        public int SideToMove
        {
            get { int side; byte check; Library.Check(Native.hayanagi_position_side_to_move(handle, out side, out check)); return side; }
        }

        /// <summary>Is the side to move in check?</summary>
        public bool InCheck
        {
            get { int side; byte check; Library.Check(Native.hayanagi_position_side_to_move(handle, out side, out check)); return check != 0; }
        }

        /// <summary>Perft (depth 0 to 10).</summary>
        public ulong Perft(uint depth)
        {
            ulong n;
            Library.Check(Native.hayanagi_position_perft(handle, depth, out n));
            return n;
        }

        /// <summary>The game state under the default rules; winner 0 (black), 1 (white) or -1.</summary>
        public GameState State(out int winner)
        {
            int s;
            Library.Check(Native.hayanagi_position_game_state(handle, out s, out winner));
            return (GameState)s;
        }

        /// <summary>The hand-crafted static evaluation for the side to move (centipawns).</summary>
        public int Evaluate()
        {
            int v;
            Library.Check(Native.hayanagi_position_evaluate(handle, out v));
            return v;
        }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>Per-engine state reached from the static callbacks through a GCHandle.
    /// It must never reference the Engine (the GCHandle would keep it alive).</summary>
    internal sealed class EngineState
    {
        // The queue and its counters, under QueueLock (held briefly, never while host code runs).
        readonly object QueueLock = new object();
        readonly Queue<EngineEvent> Events = new Queue<EngineEvent>();
        int QueuedInfos;
        internal int MaxQueuedInfos = 10000;
        internal long DroppedInfos;
        internal long DroppedStale;
        // The newest search known (from Go, a callback or a poll): events of earlier
        // searches are stale. Written under QueueLock.
        long currentSearch;
        internal long CurrentSearch { get { return Interlocked.Read(ref currentSearch); } }
        // 0: automatic (queue while no handler is subscribed), 1: always, 2: never.
        internal volatile int QueueMode;
        // The raw engine pointer, for hayanagi_engine_callback_search_id inside callbacks
        // (not the EngineHandle: the state must not keep the handle alive). Valid while
        // callbacks can run.
        internal IntPtr Raw;
        internal volatile bool UsiOutputEnabled;
        internal TaskCompletionSource<BestMove> PendingBest;
        internal TaskCompletionSource<MateResult> PendingMate;
        internal volatile BestMove LastBestMove;
        internal long BestMovesDelivered;
        // 1 from a wrapper-started search until its answer arrives (set to 0 by the
        // best-move and mate callbacks as they start).
        internal int Outstanding;
        internal long InfosDelivered;
        internal volatile Exception LastHandlerException;
        internal Action<Info> InfoHandler;
        internal Action<BestMove> BestMoveHandler;
        internal Action<MateResult> MateHandler;
        internal Action<string> LogHandler;

        internal bool QueueEnabled
        {
            get
            {
                int mode = QueueMode;
                if (mode != 0) return mode == 1;
                return InfoHandler == null && BestMoveHandler == null && MateHandler == null && LogHandler == null;
            }
        }

        static bool Counted(EventKind k)
        {
            return k == EventKind.Info || k == EventKind.UsiOutput || k == EventKind.Log;
        }

        static bool IsStale(EngineEvent ev, long current)
        {
            return ev.SearchId != 0 && ev.SearchId < current;
        }

        /// <summary>Search id has started (or been seen): drop the queued events of earlier
        /// searches. Returns false when id is itself older than the newest known.</summary>
        internal bool SeeSearch(long id)
        {
            lock (QueueLock)
            {
                long cur = currentSearch;
                if (id < cur) return false;
                if (id == cur) return true;
                Interlocked.Exchange(ref currentSearch, id);
                int n = Events.Count;
                for (int i = 0; i < n; i++)
                {
                    EngineEvent ev = Events.Dequeue();
                    if (IsStale(ev, id))
                    {
                        DroppedStale++;
                        if (Counted(ev.Kind)) QueuedInfos--;
                    }
                    else
                    {
                        Events.Enqueue(ev);
                    }
                }
                return true;
            }
        }

        internal void Enqueue(EngineEvent ev)
        {
            if (!QueueEnabled) return;
            lock (QueueLock)
            {
                if (IsStale(ev, currentSearch))
                {
                    // A late event of a search that is over (its best move came after the
                    // next Go): never queued.
                    DroppedStale++;
                    return;
                }
                if (Counted(ev.Kind))
                {
                    // Bounded: a host that never polls must not grow the queue forever. Best
                    // moves and mate answers are always kept.
                    if (QueuedInfos >= MaxQueuedInfos)
                    {
                        DroppedInfos++;
                        return;
                    }
                    QueuedInfos++;
                }
                Events.Enqueue(ev);
            }
        }

        internal bool TryDequeue(out EngineEvent ev)
        {
            lock (QueueLock)
            {
                while (Events.Count > 0)
                {
                    ev = Events.Dequeue();
                    if (Counted(ev.Kind)) QueuedInfos--;
                    if (!IsStale(ev, currentSearch)) return true;
                    DroppedStale++;
                }
            }
            ev = null;
            return false;
        }

        internal int QueuedCount { get { lock (QueueLock) return Events.Count; } }

        internal long DroppedCount { get { lock (QueueLock) return DroppedInfos; } }

        internal long StaleCount { get { lock (QueueLock) return DroppedStale; } }

        /// <summary>Inside a callback: the search it reports on (0: none; also when the
        /// library cannot tell).</summary>
        internal long CallbackSearchId()
        {
            ulong id;
            return Native.hayanagi_engine_callback_search_id(Raw, out id) == 0 ? (long)id : 0;
        }

        internal void RunHandler<T>(Action<T> handler, T value)
        {
            if (handler == null) return;
            try
            {
                handler(value);
            }
            catch (Exception e)
            {
                // Never let an exception unwind into native code.
                LastHandlerException = e;
            }
        }
    }

    /// <summary>A shogi engine. Dispose it (or let the finalizer do it): a running search is
    /// stopped and joined, and its best move still delivered.</summary>
    public sealed class Engine : IDisposable
    {
        readonly EngineHandle handle;
        readonly EngineState state;
        // Serialises the wrapper's search starts so that a pending task is always paired with
        // the search that answers it. Never taken by the callbacks.
        readonly object goLock = new object();

        // ----- callbacks: static methods, delegates held in static fields -----

        static readonly Native.InfoCallback InfoThunk = OnInfo;
        static readonly Native.BestMoveCallback BestMoveThunk = OnBestMove;
        static readonly Native.MateCallback MateThunk = OnMate;
        static readonly Native.LogCallback LogThunk = OnLog;
        static readonly Native.UsiOutputCallback UsiOutputThunk = OnUsiOutput;
        static readonly Native.FreeCallback FreeThunk = OnFree;

        /// <summary>GCHandles handed to the library and not yet released by it (for tests).</summary>
        internal static int LiveUserData;

        /// <summary>Info callbacks run in this process, all engines (for tests).</summary>
        internal static long InfoCallbacksTotal;

        [ThreadStatic] static EngineState inCallback;

        static EngineState StateOf(IntPtr userData)
        {
            return (EngineState)GCHandle.FromIntPtr(userData).Target;
        }

        [MonoPInvokeCallback(typeof(Native.InfoCallback))]
        static void OnInfo(IntPtr userData, IntPtr info, IntPtr usiLine)
        {
            EngineState s = null;
            try
            {
                s = StateOf(userData);
                inCallback = s;
                var n = (Native.NativeInfo)Marshal.PtrToStructure(info, typeof(Native.NativeInfo));
                var i = ToInfo(n, Utf8.SplitMoves(Utf8.FromNative(n.pv)), Utf8.FromNative(usiLine));
                long id = s.CallbackSearchId();
                s.SeeSearch(id);
                Interlocked.Increment(ref s.InfosDelivered);
                Interlocked.Increment(ref InfoCallbacksTotal);
                s.Enqueue(new EngineEvent { Kind = EventKind.Info, SearchId = id, Info = i, Text = i.UsiLine });
                s.RunHandler(s.InfoHandler, i);
            }
            catch (Exception e)
            {
                if (s != null) s.LastHandlerException = e;
            }
            finally
            {
                inCallback = null;
            }
        }

        [MonoPInvokeCallback(typeof(Native.BestMoveCallback))]
        static void OnBestMove(IntPtr userData, IntPtr bestmove, IntPtr ponder)
        {
            EngineState s = null;
            try
            {
                s = StateOf(userData);
                inCallback = s;
                var b = new BestMove(Utf8.FromNative(bestmove), Utf8.FromNative(ponder));
                long id = s.CallbackSearchId();
                // False for a late best move of a search older than the newest one started.
                bool current = s.SeeSearch(id);
                Interlocked.Exchange(ref s.Outstanding, 0);
                if (current) s.LastBestMove = b;
                Interlocked.Increment(ref s.BestMovesDelivered);
                s.Enqueue(new EngineEvent { Kind = EventKind.BestMove, SearchId = id, BestMove = b, Text = b.ToString() });
                var tcs = current ? Interlocked.Exchange(ref s.PendingBest, null) : null;
                if (tcs != null) tcs.TrySetResult(b);
                s.RunHandler(s.BestMoveHandler, b);
            }
            catch (Exception e)
            {
                if (s != null) s.LastHandlerException = e;
            }
            finally
            {
                inCallback = null;
            }
        }

        [MonoPInvokeCallback(typeof(Native.MateCallback))]
        static void OnMate(IntPtr userData, IntPtr result, IntPtr moves)
        {
            EngineState s = null;
            try
            {
                s = StateOf(userData);
                inCallback = s;
                var n = (Native.NativeMateResult)Marshal.PtrToStructure(result, typeof(Native.NativeMateResult));
                Interlocked.Exchange(ref s.Outstanding, 0);
                var m = ToMate(n, Utf8.FromNative(moves));
                long id = s.CallbackSearchId();
                bool current = s.SeeSearch(id);
                s.Enqueue(new EngineEvent { Kind = EventKind.Mate, SearchId = id, Mate = m, Text = m.ToString() });
                var tcs = current ? Interlocked.Exchange(ref s.PendingMate, null) : null;
                if (tcs != null) tcs.TrySetResult(m);
                s.RunHandler(s.MateHandler, m);
            }
            catch (Exception e)
            {
                if (s != null) s.LastHandlerException = e;
            }
            finally
            {
                inCallback = null;
            }
        }

        [MonoPInvokeCallback(typeof(Native.LogCallback))]
        static void OnLog(IntPtr userData, IntPtr message)
        {
            EngineState s = null;
            try
            {
                s = StateOf(userData);
                inCallback = s;
                string text = Utf8.FromNative(message);
                s.Enqueue(new EngineEvent { Kind = EventKind.Log, SearchId = s.CallbackSearchId(), Text = text });
                s.RunHandler(s.LogHandler, text);
            }
            catch (Exception e)
            {
                if (s != null) s.LastHandlerException = e;
            }
            finally
            {
                inCallback = null;
            }
        }

        [MonoPInvokeCallback(typeof(Native.UsiOutputCallback))]
        static void OnUsiOutput(IntPtr userData, IntPtr line)
        {
            EngineState s = null;
            try
            {
                s = StateOf(userData);
                if (!s.UsiOutputEnabled) return;
                s.Enqueue(new EngineEvent { Kind = EventKind.UsiOutput, SearchId = s.CallbackSearchId(), Text = Utf8.FromNative(line) });
            }
            catch (Exception e)
            {
                if (s != null) s.LastHandlerException = e;
            }
        }

        [MonoPInvokeCallback(typeof(Native.FreeCallback))]
        static void OnFree(IntPtr userData)
        {
            try
            {
                GCHandle.FromIntPtr(userData).Free();
                Interlocked.Decrement(ref LiveUserData);
            }
            catch (Exception)
            {
                // Nothing sensible to do; never unwind into native code.
            }
        }

        // ----- construction and disposal -----

        /// <summary>A new engine. hashMib: table size (0 = default 16 MiB); threads: search
        /// threads (0 = default 1).</summary>
        public Engine(uint hashMib = 0, uint threads = 0)
        {
            var config = new Native.NativeEngineConfig
            {
                struct_size = (UIntPtr)Marshal.SizeOf(typeof(Native.NativeEngineConfig)),
                hash_mib = hashMib,
                threads = threads,
            };
            EngineHandle h;
            int st;
            try
            {
                st = Native.hayanagi_engine_new(ref config, out h);
            }
            catch (DllNotFoundException e)
            {
                throw Library.NotFound(e);
            }
            if (st != 0)
            {
                string msg = Library.LastError();
                h.Dispose();
                throw new HayanagiException((Status)st, msg);
            }
            handle = h;
            Track(h);
            state = new EngineState();
            state.Raw = h.DangerousGetHandle();
            try
            {
                Install((ud) => Native.hayanagi_engine_set_info_callback(handle, InfoThunk, ud, FreeThunk));
                Install((ud) => Native.hayanagi_engine_set_bestmove_callback(handle, BestMoveThunk, ud, FreeThunk));
                Install((ud) => Native.hayanagi_engine_set_mate_callback(handle, MateThunk, ud, FreeThunk));
                Install((ud) => Native.hayanagi_engine_set_log_callback(handle, LogThunk, ud, FreeThunk));
                Install((ud) => Native.hayanagi_engine_set_usi_output_callback(handle, UsiOutputThunk, ud, FreeThunk));
            }
            catch
            {
                handle.Dispose();
                throw;
            }
        }

        // ----- engines still alive at process exit / domain unload -----

        // Long weak references to the handles of live engines (they survive until the
        // handle's finalizer ran). At ProcessExit (Mono would otherwise hang at exit with a
        // search running) and DomainUnload (Unity's script reload: the static callbacks are
        // about to disappear) every engine still alive is stopped and freed.
        static readonly List<WeakReference> liveHandles = new List<WeakReference>();
        static bool exitHooked;

        static void Track(EngineHandle h)
        {
            lock (liveHandles)
            {
                if (!exitHooked)
                {
                    exitHooked = true;
                    AppDomain.CurrentDomain.ProcessExit += (s, a) => FreeAllEngines();
                    AppDomain.CurrentDomain.DomainUnload += (s, a) => FreeAllEngines();
                }
                liveHandles.RemoveAll(w => !w.IsAlive || ((EngineHandle)w.Target).IsClosed);
                liveHandles.Add(new WeakReference(h, true));
            }
        }

        /// <summary>Stop and free every engine not yet disposed (run at process exit and
        /// domain unload; may be called by the host, e.g. before a Unity script reload).</summary>
        public static void FreeAllEngines()
        {
            List<EngineHandle> handles;
            lock (liveHandles)
            {
                handles = new List<EngineHandle>();
                foreach (var w in liveHandles)
                {
                    var h = w.Target as EngineHandle;
                    if (h != null) handles.Add(h);
                }
                liveHandles.Clear();
            }
            foreach (var h in handles)
            {
                try
                {
                    if (!h.IsClosed) Native.hayanagi_engine_stop(h);
                    h.Dispose();
                }
                catch (ObjectDisposedException)
                {
                }
            }
        }

        /// <summary>Give the library its own GCHandle to the state for one callback slot; the
        /// library frees it (OnFree) when the engine is freed.</summary>
        void Install(Func<IntPtr, int> setter)
        {
            var gch = GCHandle.Alloc(state);
            Interlocked.Increment(ref LiveUserData);
            int st = setter(GCHandle.ToIntPtr(gch));
            if (st != 0)
            {
                // The library did not take the user data.
                gch.Free();
                Interlocked.Decrement(ref LiveUserData);
                Check(st);
            }
        }

        /// <summary>Stop any search and free the engine now (its best move is still
        /// delivered first). Throws Status.Reentrant from inside this engine's callbacks.</summary>
        public void Dispose()
        {
            if (inCallback == state)
                throw new HayanagiException(Status.Reentrant, "an Engine cannot be disposed from inside its own callbacks");
            if (!handle.IsClosed)
            {
                try
                {
                    // Another thread blocked in Wait() holds a reference to the handle: stop
                    // the search so that its Wait returns and the handle can be released.
                    Native.hayanagi_engine_stop(handle);
                }
                catch (ObjectDisposedException)
                {
                }
            }
            handle.Dispose();
        }

        /// <summary>True once Dispose has run.</summary>
        public bool IsDisposed { get { return handle.IsClosed; } }

        void Check(int st)
        {
            if (st == 0) return;
            // The thread's copy is read first: another thread failing on the same engine
            // cannot replace it in between.
            string msg = Library.LastError();
            if (string.IsNullOrEmpty(msg)) msg = LastError;
            throw new HayanagiException((Status)st, msg);
        }

        /// <summary>This engine's last error message.</summary>
        public string LastError
        {
            get
            {
                return Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_last_error(handle, b, c, out l), 256, null);
            }
        }

        // ----- options and position -----

        /// <summary>Set a USI option (the README lists them). Throws Status.InvalidArg for an
        /// unknown name or a bad value, Status.Busy while searching.</summary>
        public void SetOption(string name, string value)
        {
            if (name == null) throw new ArgumentNullException("name");
            if (value == null) throw new ArgumentNullException("value");
            Check(Native.hayanagi_engine_set_option(handle, Utf8.ToNative(name), Utf8.ToNative(value)));
        }

        /// <summary>The value the engine holds for an option (name or alias, any case), as
        /// SetOption takes it back. Throws Status.InvalidArg for an unknown name.</summary>
        public string GetOption(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            byte[] key = Utf8.ToNative(name);
            return Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_get_option(handle, key, b, c, out l), 64, Check);
        }

        string OptionText(string name, int what)
        {
            byte[] key = Utf8.ToNative(name);
            return Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_option_text(handle, key, what, b, c, out l), 128, Check);
        }

        /// <summary>Every option the engine lists, in the order USI "usi" prints them; the
        /// hidden developer options too when <paramref name="hidden"/>.</summary>
        public IList<OptionInfo> OptionInfos(bool hidden = false)
        {
            uint flags = hidden ? 1u : 0u; // HAYANAGI_OPTION_HIDDEN
            UIntPtr count;
            Check(Native.hayanagi_engine_option_count(handle, flags, out count));
            var list = new List<OptionInfo>();
            for (ulong i = 0; i < count.ToUInt64(); i++)
            {
                Native.NativeOptionInfo raw = default(Native.NativeOptionInfo);
                UIntPtr index = new UIntPtr(i);
                string name = Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_option_info(handle, index, flags, out raw, b, c, out l), 64, Check);
                string choices = OptionText(name, 1); // HAYANAGI_OPTION_TEXT_CHOICES
                list.Add(new OptionInfo
                {
                    Name = name,
                    Type = (OptionType)raw.kind,
                    Default = OptionText(name, 0), // HAYANAGI_OPTION_TEXT_DEFAULT
                    Min = raw.min,
                    Max = raw.max,
                    Choices = choices.Length == 0 ? new string[0] : choices.Split(' '),
                    Hidden = (raw.flags & 1u) != 0,
                    AtReady = (raw.flags & 2u) != 0,
                    Help = OptionText(name, 2), // HAYANAGI_OPTION_TEXT_HELP
                });
            }
            return list;
        }

        public void SetOption(string name, long value) { SetOption(name, value.ToString(CultureInfo.InvariantCulture)); }

        public void SetOption(string name, bool value) { SetOption(name, value ? "true" : "false"); }

        /// <summary>Set several options; values are formatted invariantly (bool as true/false).</summary>
        public void SetOptions(IDictionary<string, object> values)
        {
            foreach (var kv in values)
            {
                object v = kv.Value;
                if (v is bool) SetOption(kv.Key, (bool)v);
                else SetOption(kv.Key, Convert.ToString(v, CultureInfo.InvariantCulture));
            }
        }

        /// <summary>The values the engine holds for the options a GUI is shown (name to
        /// value, case-insensitive), read from the engine.</summary>
        public IDictionary<string, string> Options
        {
            get
            {
                var d = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
                foreach (var o in OptionInfos(false)) d[o.Name] = GetOption(o.Name);
                return d;
            }
        }

        /// <summary>Apply deferred work (table resize, book): the USI isready step.</summary>
        public void Ready() { Check(Native.hayanagi_engine_ready(handle)); }

        /// <summary>Start a new game: clears the table and, at the next search, the move-ordering history.</summary>
        public void NewGame() { Check(Native.hayanagi_engine_new_game(handle)); }

        /// <summary>USI position syntax: "startpos", "sfen &lt;SFEN&gt;" or a bare SFEN,
        /// optionally followed by "moves m1 m2 ...". Throws Status.Parse (bad SFEN) or
        /// Status.IllegalMove; the previous position is kept then.</summary>
        public void SetPosition(string position)
        {
            if (position == null) throw new ArgumentNullException("position");
            Check(Native.hayanagi_engine_set_position(handle, Utf8.ToNative(position)));
        }

        /// <summary>The current position as SFEN.</summary>
        public string Sfen()
        {
            return Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_sfen(handle, b, c, out l), 128, Check);
        }

        /// <summary>The legal moves of the current position (USI, ASCII order).</summary>
        public string[] LegalMoves()
        {
            return Utf8.SplitMoves(Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_legal_moves(handle, b, c, out l), 1024, Check));
        }

        /// <summary>Is the USI move legal in the current position? Malformed text is not.</summary>
        public bool IsLegal(string usiMove)
        {
            if (usiMove == null) throw new ArgumentNullException("usiMove");
            byte b;
            Check(Native.hayanagi_engine_is_legal(handle, Utf8.ToNative(usiMove), out b));
            return b != 0;
        }

        /// <summary>Perft of the current position (depth 0 to 10).</summary>
        public ulong Perft(uint depth)
        {
            ulong n;
            Check(Native.hayanagi_engine_perft(handle, depth, out n));
            return n;
        }

        /// <summary>Static evaluation for the side to move, in centipawns.</summary>
        public int Evaluate()
        {
            int v;
            Check(Native.hayanagi_engine_evaluate(handle, out v));
            return v;
        }

        /// <summary>Game state of the current position; winner is 0 (black), 1 (white) or -1.</summary>
        public GameState GetGameState(out int winner)
        {
            int s;
            Check(Native.hayanagi_engine_game_state(handle, out s, out winner));
            return (GameState)s;
        }

        // ----- searching -----

        static Native.NativeLimits ToNative(Limits l)
        {
            Native.NativeLimits n;
            Library.Check(Native.hayanagi_limits_init(out n));
            if (l == null) return n;
            if (l.BlackTimeMs.HasValue) n.btime_ms = l.BlackTimeMs.Value;
            if (l.WhiteTimeMs.HasValue) n.wtime_ms = l.WhiteTimeMs.Value;
            if (l.BlackIncMs.HasValue) n.binc_ms = l.BlackIncMs.Value;
            if (l.WhiteIncMs.HasValue) n.winc_ms = l.WhiteIncMs.Value;
            if (l.ByoyomiMs.HasValue) n.byoyomi_ms = l.ByoyomiMs.Value;
            if (l.MoveTimeMs.HasValue) n.movetime_ms = l.MoveTimeMs.Value;
            if (l.MovesToGo.HasValue) n.movestogo = l.MovesToGo.Value;
            if (l.Depth.HasValue) n.depth = l.Depth.Value;
            if (l.Nodes.HasValue) n.nodes = l.Nodes.Value;
            n.infinite = (byte)(l.Infinite ? 1 : 0);
            n.ponder = (byte)(l.Ponder ? 1 : 0);
            if (l.MultiPv.HasValue)
            {
                if (l.MultiPv.Value < 1) throw new ArgumentOutOfRangeException("limits", "MultiPv must be 1-32");
                n.multipv = (uint)l.MultiPv.Value;
            }
            return n;
        }

        /// <summary>Start the native search; the caller holds goLock and has made sure the
        /// engine is idle. Status on failure (nothing started).</summary>
        int StartSearch(Limits limits)
        {
            var n = ToNative(limits);
            GCHandle pin = default(GCHandle);
            try
            {
                if (limits != null && limits.SearchMoves != null)
                {
                    pin = GCHandle.Alloc(Utf8.ToNative(string.Join(" ", limits.SearchMoves)), GCHandleType.Pinned);
                    n.searchmoves = pin.AddrOfPinnedObject();
                }
                return Native.hayanagi_engine_go(handle, ref n);
            }
            finally
            {
                if (pin.IsAllocated) pin.Free();
            }
        }

        /// <summary>Make sure no search is running before a new one is paired with a pending
        /// task. A search started here whose answer has not arrived is Busy at once; a search
        /// that is only delivering its best move (or one started on the USI channel) is
        /// waited for, at most 2 s.</summary>
        void RequireIdle()
        {
            if (!IsSearching) return;
            if (Volatile.Read(ref state.Outstanding) != 0) throw new HayanagiException(Status.Busy, "a search is running");
            int st = Native.hayanagi_engine_wait(handle, 2000);
            if (st == (int)Status.Timeout) throw new HayanagiException(Status.Busy, "a search is running");
            Check(st);
        }

        /// <summary>Start a search or mate search (under goLock, engine idle) with the answer
        /// marked outstanding; undone when nothing started.</summary>
        void Start(Func<int> start, Action undo)
        {
            Interlocked.Exchange(ref state.Outstanding, 1);
            var previousBest = state.LastBestMove;
            state.LastBestMove = null;
            int st = start();
            if (st != 0)
            {
                Interlocked.Exchange(ref state.Outstanding, 0);
                state.LastBestMove = previousBest;
                if (undo != null) undo();
                Check(st);
            }
            // The events of earlier searches are stale from now on.
            state.SeeSearch(SearchId);
        }

        /// <summary>The id of the current search, or of the last one when none runs: 0
        /// before the first, then one more for each search started (Go, GoAsync, GoMate,
        /// and searches of the USI channel). Read it after Go to know the SearchId its
        /// events carry.</summary>
        public long SearchId
        {
            get
            {
                ulong id;
                Check(Native.hayanagi_engine_search_id(handle, out id));
                return (long)id;
            }
        }

        /// <summary>Start a search and return at once. Exactly one best move follows: as an
        /// EventKind.BestMove event (TryPoll; the search's last event), to BestMoveReceived
        /// and in LastBestMove. The queued events of earlier searches are dropped (counted
        /// in StaleEvents) and LastBestMove is null until this search's best move.</summary>
        public void Go(Limits limits)
        {
            lock (goLock)
            {
                RequireIdle();
                Start(() => StartSearch(limits), null);
            }
        }

        /// <summary>Start a search; the task completes with its best move (on a thread-pool
        /// thread, never inline on the search thread). Cancelling the token stops the search
        /// (the task still completes with the best move found so far). Disposing the engine
        /// also completes it.</summary>
        public Task<BestMove> GoAsync(Limits limits, CancellationToken cancel = default(CancellationToken))
        {
            var tcs = new TaskCompletionSource<BestMove>(TaskCreationOptions.RunContinuationsAsynchronously);
            lock (goLock)
            {
                RequireIdle();
                Interlocked.Exchange(ref state.PendingBest, tcs);
                Start(() => StartSearch(limits), () => Interlocked.CompareExchange(ref state.PendingBest, null, tcs));
            }
            if (cancel.CanBeCanceled)
            {
                var reg = cancel.Register(() => { try { Stop(); } catch (ObjectDisposedException) { } });
                tcs.Task.ContinueWith(_ => reg.Dispose(), TaskContinuationOptions.ExecuteSynchronously);
            }
            return tcs.Task;
        }

        /// <summary>Search and block until the best move (an infinite search only ends through
        /// Stop from another thread).</summary>
        public BestMove Search(Limits limits)
        {
            Task<BestMove> t = GoAsync(limits);
            Wait();
            return t.Result;
        }

        /// <summary>Start a mate search (df-pn); returns at once. movetimeMs &lt; 0 and nodes
        /// == 0 mean no such limit. Exactly one answer follows (EventKind.Mate, MateReceived,
        /// LastMate); never a best move.</summary>
        public void GoMate(long movetimeMs = -1, ulong nodes = 0, bool anyLength = false)
        {
            lock (goLock)
            {
                RequireIdle();
                Start(() => Native.hayanagi_engine_go_mate(handle, movetimeMs, nodes, anyLength ? 1u : 0u), null);
            }
        }

        /// <summary>Start a mate search; the task completes with its answer.</summary>
        public Task<MateResult> GoMateAsync(long movetimeMs = -1, ulong nodes = 0, bool anyLength = false)
        {
            var tcs = new TaskCompletionSource<MateResult>(TaskCreationOptions.RunContinuationsAsynchronously);
            lock (goLock)
            {
                RequireIdle();
                Interlocked.Exchange(ref state.PendingMate, tcs);
                Start(() => Native.hayanagi_engine_go_mate(handle, movetimeMs, nodes, anyLength ? 1u : 0u),
                      () => Interlocked.CompareExchange(ref state.PendingMate, null, tcs));
            }
            return tcs.Task;
        }

        /// <summary>The answer of the last finished mate search (Status.InvalidArg when none).</summary>
        public MateResult LastMate()
        {
            Native.NativeMateResult r = default(Native.NativeMateResult);
            string moves = Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_last_mate(handle, out r, b, c, out l), 256, Check);
            return ToMate(r, moves);
        }

        /// <summary>Ask the search to finish now. Never blocks; a no-op when idle; allowed in
        /// callbacks and event handlers.</summary>
        public void Stop() { Check(Native.hayanagi_engine_stop(handle)); }

        /// <summary>The predicted move was played: the ponder search becomes a timed search.</summary>
        public void PonderHit() { Check(Native.hayanagi_engine_ponderhit(handle)); }

        /// <summary>Block until the best move has been delivered (timeoutMs &lt; 0: forever).
        /// False on timeout.</summary>
        public bool Wait(long timeoutMs = -1)
        {
            int st = Native.hayanagi_engine_wait(handle, timeoutMs);
            if (st == (int)Status.Timeout) return false;
            Check(st);
            return true;
        }

        /// <summary>True from Go until the best move has been delivered.</summary>
        public bool IsSearching
        {
            get
            {
                byte b;
                Check(Native.hayanagi_engine_is_searching(handle, out b));
                return b != 0;
            }
        }

        /// <summary>The best move of the last finished search; null from Go until the new
        /// search's best move arrives (never the previous search's).</summary>
        public BestMove LastBestMove { get { return state.LastBestMove; } }

        // ----- events -----

        /// <summary>Take the oldest queued event (info, best move, mate answer, log message,
        /// USI output line). Call it from your own thread (Unity: Update()). Events of a
        /// search older than the newest one started never come out. A search's best move
        /// (or mate answer) is its last event: drain up to it and no info line is lost.</summary>
        public bool TryPoll(out EngineEvent ev)
        {
            // A search started elsewhere (the USI channel) makes the older events stale too.
            state.SeeSearch(SearchId);
            return state.TryDequeue(out ev);
        }

        /// <summary>The oldest queued event, or null.</summary>
        public EngineEvent Poll()
        {
            EngineEvent ev;
            return TryPoll(out ev) ? ev : null;
        }

        /// <summary>Queue events for TryPoll. By default it follows the API the host uses:
        /// true while no InfoReceived/BestMoveReceived/MateReceived/LogReceived handler is
        /// subscribed (a polling host), false once one is (a host that takes handlers and
        /// never polls keeps no queue). Setting it makes the choice explicit (true: queue
        /// also with handlers; false: never); QueueEventsAutomatic() returns to the default.
        /// Disabling drops nothing already queued.</summary>
        public bool QueueEvents
        {
            get { return state.QueueEnabled; }
            set { state.QueueMode = value ? 1 : 2; }
        }

        /// <summary>Back to the default of QueueEvents (queue while no handler is subscribed).</summary>
        public void QueueEventsAutomatic() { state.QueueMode = 0; }

        /// <summary>Info callbacks this engine has had (for tests).</summary>
        internal long InfoCallbacks { get { return Interlocked.Read(ref state.InfosDelivered); } }

        /// <summary>Events in the queue now.</summary>
        public int QueuedEvents { get { return state.QueuedCount; } }

        /// <summary>Events of earlier searches dropped since the engine was made (at Go, or
        /// when they arrived late).</summary>
        public long StaleEvents { get { return state.StaleCount; } }

        /// <summary>Most info/log/USI-output events kept in the queue (default 10000); further
        /// ones are dropped (counted in DroppedEvents). Best moves and mate answers are
        /// always queued.</summary>
        public int MaxQueuedEvents
        {
            get { return state.MaxQueuedInfos; }
            set { state.MaxQueuedInfos = Math.Max(1, value); }
        }

        /// <summary>Info/log/USI-output events dropped because MaxQueuedEvents were queued.</summary>
        public long DroppedEvents { get { return state.DroppedCount; } }

        /// <summary>Info reports, on the SEARCH THREAD.</summary>
        public event Action<Info> InfoReceived
        {
            add { lock (state) state.InfoHandler += value; }
            remove { lock (state) state.InfoHandler -= value; }
        }

        /// <summary>The best move of each search, on the SEARCH THREAD.</summary>
        public event Action<BestMove> BestMoveReceived
        {
            add { lock (state) state.BestMoveHandler += value; }
            remove { lock (state) state.BestMoveHandler -= value; }
        }

        /// <summary>The answer of each mate search, on the SEARCH THREAD.</summary>
        public event Action<MateResult> MateReceived
        {
            add { lock (state) state.MateHandler += value; }
            remove { lock (state) state.MateHandler -= value; }
        }

        /// <summary>Warnings and diagnostics, on the thread that produced them.</summary>
        public event Action<string> LogReceived
        {
            add { lock (state) state.LogHandler += value; }
            remove { lock (state) state.LogHandler -= value; }
        }

        /// <summary>The last exception thrown by an event handler (they never reach native code).</summary>
        public Exception LastHandlerException { get { return state.LastHandlerException; } }

        /// <summary>Enable (or disable) the library's own event queue, read with
        /// TryPollNative: an alternative to the callbacks (info reports there have no PV
        /// field; it is parsed from the text).</summary>
        public void EnableNativeEvents(bool enabled)
        {
            Check(Native.hayanagi_engine_enable_events(handle, enabled));
        }

        /// <summary>Take the oldest event of the library's own queue (EnableNativeEvents),
        /// with its SearchId (hayanagi_engine_poll_event2). The library's queue is bounded
        /// (SetNativeEventCapacity) and holds one search's events, as the managed one.</summary>
        public bool TryPollNative(out EngineEvent ev)
        {
            var raw = new Native.NativeEvent2 { struct_size = (UIntPtr)Marshal.SizeOf(typeof(Native.NativeEvent2)) };
            string text = Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_poll_event2(handle, ref raw, b, c, out l), 256, Check);
            ev = null;
            long id = (long)raw.search_id;
            switch (raw.kind)
            {
                case 0:
                    return false;
                case 1:
                    ev = new EngineEvent { Kind = EventKind.Info, SearchId = id, Text = text, Info = ToInfo(raw.info, PvFromText(text), text) };
                    return true;
                case 2:
                    ev = new EngineEvent { Kind = EventKind.BestMove, SearchId = id, Text = text, BestMove = BestMoveFromText(text) };
                    return true;
                default:
                    ev = new EngineEvent { Kind = EventKind.Mate, SearchId = id, Text = text };
                    return true;
            }
        }

        /// <summary>Take the oldest event of the library's queue through the first poll
        /// function (no search id; SearchId is 0).</summary>
        public bool TryPollNativeV1(out EngineEvent ev)
        {
            Native.NativeEvent raw = default(Native.NativeEvent);
            string text = Utf8.CopyOut((byte[] b, UIntPtr c, out UIntPtr l) => Native.hayanagi_engine_poll_event(handle, out raw, b, c, out l), 256, Check);
            ev = null;
            if (raw.kind == 0) return false;
            ev = new EngineEvent { Kind = (EventKind)raw.kind, Text = text };
            return true;
        }

        /// <summary>How many events the library's queue holds at most (2 to 1048576;
        /// default 4096): the oldest info events go first, best moves never.</summary>
        public void SetNativeEventCapacity(int capacity)
        {
            if (capacity < 0) throw new ArgumentOutOfRangeException("capacity");
            Check(Native.hayanagi_engine_set_event_capacity(handle, (UIntPtr)(uint)capacity));
        }

        /// <summary>The library queue's counters: events queued now, info events dropped
        /// for room, events of earlier searches dropped (EnableNativeEvents first).</summary>
        public void NativeEventCounts(out long queued, out long droppedFull, out long droppedStale)
        {
            var st = new Native.NativeEventStats { struct_size = (UIntPtr)Marshal.SizeOf(typeof(Native.NativeEventStats)) };
            Check(Native.hayanagi_engine_event_stats(handle, ref st));
            queued = (long)st.queued;
            droppedFull = (long)st.dropped_full;
            droppedStale = (long)st.dropped_stale;
        }

        static string[] PvFromText(string line)
        {
            int i = line.IndexOf(" pv ", StringComparison.Ordinal);
            return i < 0 ? new string[0] : Utf8.SplitMoves(line.Substring(i + 4));
        }

        static BestMove BestMoveFromText(string line)
        {
            string[] w = Utf8.SplitMoves(line);
            return new BestMove(w.Length > 1 ? w[1] : "", w.Length > 3 && w[2] == "ponder" ? w[3] : null);
        }

        // ----- USI text channel -----

        /// <summary>Send one USI command line (as a GUI writes to an engine's stdin). The
        /// answers are queued as EventKind.UsiOutput events from the first call on.</summary>
        public void UsiCommand(string line)
        {
            if (line == null) throw new ArgumentNullException("line");
            state.UsiOutputEnabled = true;
            lock (goLock) Check(Native.hayanagi_engine_usi_command(handle, Utf8.ToNative(line)));
        }

        // ----- table -----

        /// <summary>What the table holds for the current position (position == null) or for
        /// a USI position string; null when nothing.</summary>
        public TtEntry ProbeTt(string position = null)
        {
            Native.NativeTtProbe p;
            Check(Native.hayanagi_engine_probe_tt(handle, Utf8.ToNative(position), out p));
            return ToEntry(p);
        }

        /// <summary>Probe by Zobrist key (the move is not checked).</summary>
        public TtEntry ProbeTtKey(ulong key)
        {
            Native.NativeTtProbe p;
            Check(Native.hayanagi_engine_probe_tt_key(handle, key, out p));
            return ToEntry(p);
        }

        /// <summary>Permille of the table used by the current generation.</summary>
        public int Hashfull()
        {
            uint v;
            Check(Native.hayanagi_engine_hashfull(handle, out v));
            return (int)v;
        }

        /// <summary>Forget the table's contents.</summary>
        public void ClearHash() { Check(Native.hayanagi_engine_clear_hash(handle)); }

        /// <summary>Use table from now on (shared with every engine using it).</summary>
        public void SetTable(Table table)
        {
            if (table == null) throw new ArgumentNullException("table");
            Check(Native.hayanagi_engine_set_table(handle, table.Handle));
        }

        // ----- conversions -----

        static Info ToInfo(Native.NativeInfo n, string[] pv, string line)
        {
            return new Info
            {
                Depth = (int)n.depth,
                SelDepth = (int)n.seldepth,
                MultiPv = (int)n.multipv,
                ScoreKind = (ScoreKind)n.score_kind,
                Score = n.score_value,
                Bound = (Bound)n.bound,
                Nodes = n.nodes,
                Nps = n.nps,
                TimeMs = n.time_ms,
                Hashfull = (int)n.hashfull,
                Pv = pv,
                UsiLine = line,
            };
        }

        static MateResult ToMate(Native.NativeMateResult n, string moves)
        {
            return new MateResult
            {
                Kind = (MateKind)n.kind,
                Plies = (int)n.plies,
                Shortest = n.shortest != 0,
                Nodes = n.nodes,
                TimeMs = n.time_ms,
                Moves = Utf8.SplitMoves(moves),
            };
        }

        static TtEntry ToEntry(Native.NativeTtProbe p)
        {
            if (p.found == 0) return null;
            int len = 0;
            while (len < p.move_usi.Length && p.move_usi[len] != 0) len++;
            return new TtEntry
            {
                Move = Encoding.ASCII.GetString(p.move_usi, 0, len),
                MoveLegal = p.move_legal != 0,
                ScoreKind = (ScoreKind)p.score_kind,
                Score = p.score_value,
                Depth = p.depth,
                Bound = (Bound)p.bound,
                Generation = p.generation,
            };
        }
    }

    /// <summary>The raw C API. Names, parameters and structs follow include/hayanagi.h
    /// exactly (tests/bindings/test_header_bindings.py compares them); bool is passed as a
    /// byte (C99 bool is one byte; the default C# bool marshalling is four).</summary>
    internal static class Native
    {
#if (UNITY_IOS || UNITY_TVOS) && !UNITY_EDITOR
        // Statically linked into the player (libhayanagi.a).
        internal const string Lib = "__Internal";
#elif HAYANAGI_TEST_MISSING_LIBRARY
        // tests/csharp/MissingLibrary.cs: a library that is not there.
        internal const string Lib = "hayanagi_not_installed";
#else
        // libhayanagi.so / libhayanagi.dylib / hayanagi.dll
        internal const string Lib = "hayanagi";
#endif

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeLimits
        {
            public UIntPtr struct_size;
            public long btime_ms;
            public long wtime_ms;
            public long binc_ms;
            public long winc_ms;
            public long byoyomi_ms;
            public long movetime_ms;
            public int movestogo;
            public int depth;
            public long nodes;
            public byte infinite;
            public byte ponder;
            public uint multipv;
            public IntPtr searchmoves;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeEngineConfig
        {
            public UIntPtr struct_size;
            public uint hash_mib;
            public uint threads;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeMateResult
        {
            public int kind;
            public uint plies;
            public byte shortest;
            public ulong nodes;
            public ulong time_ms;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeInfo
        {
            public uint depth;
            public uint seldepth;
            public uint multipv;
            public int score_kind;
            public int score_value;
            public int bound;
            public ulong nodes;
            public ulong nps;
            public ulong time_ms;
            public uint hashfull;
            public IntPtr pv;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeOptionInfo
        {
            public int kind;
            public uint flags;
            public long min;
            public long max;
            public uint choices;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeEvent
        {
            public int kind;
            public NativeInfo info;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeEvent2
        {
            public UIntPtr struct_size;
            public int kind;
            public ulong search_id;
            public ulong dropped_info;
            public NativeInfo info;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeEventStats
        {
            public UIntPtr struct_size;
            public ulong queued;
            public ulong capacity;
            public ulong dropped_full;
            public ulong dropped_stale;
            public ulong dropped_stale_final;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct NativeTtProbe
        {
            public byte found;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 8)]
            public byte[] move_usi;
            public byte move_legal;
            public int score_kind;
            public int score_value;
            public int depth;
            public int bound;
            public byte generation;
        }

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void InfoCallback(IntPtr user_data, IntPtr info, IntPtr usi_line);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void FreeCallback(IntPtr user_data);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void BestMoveCallback(IntPtr user_data, IntPtr bestmove, IntPtr ponder);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void LogCallback(IntPtr user_data, IntPtr message);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void MateCallback(IntPtr user_data, IntPtr result, IntPtr moves);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void UsiOutputCallback(IntPtr user_data, IntPtr line);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint hayanagi_abi_version();

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr hayanagi_version_string();

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr hayanagi_status_str(int status);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_last_error([Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_limits_init(out NativeLimits limits);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_table_new(uint size_mib, out TableHandle @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_table_free(IntPtr table);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_new(ref NativeEngineConfig config, out EngineHandle @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_free(IntPtr engine);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_last_error(EngineHandle engine, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_option(EngineHandle engine, byte[] name, byte[] value);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_get_option(EngineHandle engine, byte[] name, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_option_count(EngineHandle engine, uint flags, out UIntPtr @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_option_info(EngineHandle engine, UIntPtr index, uint flags, out NativeOptionInfo @out, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_option_text(EngineHandle engine, byte[] name, int what, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_ready(EngineHandle engine);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_new_game(EngineHandle engine);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_position(EngineHandle engine, byte[] position);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_go(EngineHandle engine, ref NativeLimits limits);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_go_mate(EngineHandle engine, long movetime_ms, ulong nodes, uint flags);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_last_mate(EngineHandle engine, out NativeMateResult @out, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_stop(EngineHandle engine);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_ponderhit(EngineHandle engine);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_wait(EngineHandle engine, long timeout_ms);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_is_searching(EngineHandle engine, out byte @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_info_callback(EngineHandle engine, InfoCallback callback, IntPtr user_data, FreeCallback user_data_free);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_bestmove_callback(EngineHandle engine, BestMoveCallback callback, IntPtr user_data, FreeCallback user_data_free);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_log_callback(EngineHandle engine, LogCallback callback, IntPtr user_data, FreeCallback user_data_free);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_mate_callback(EngineHandle engine, MateCallback callback, IntPtr user_data, FreeCallback user_data_free);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_usi_output_callback(EngineHandle engine, UsiOutputCallback callback, IntPtr user_data, FreeCallback user_data_free);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_usi_command(EngineHandle engine, byte[] line);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_enable_events(EngineHandle engine, [MarshalAs(UnmanagedType.U1)] bool enabled);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_poll_event(EngineHandle engine, out NativeEvent @out, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_poll_event2(EngineHandle engine, ref NativeEvent2 @out, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_event_capacity(EngineHandle engine, UIntPtr capacity);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_event_stats(EngineHandle engine, ref NativeEventStats @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_search_id(EngineHandle engine, out ulong @out);

        // IntPtr: called from callbacks, which must not hold the EngineHandle.
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_callback_search_id(IntPtr engine, out ulong @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_probe_tt(EngineHandle engine, byte[] position, out NativeTtProbe @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_probe_tt_key(EngineHandle engine, ulong key, out NativeTtProbe @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_hashfull(EngineHandle engine, out uint @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_clear_hash(EngineHandle engine);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_set_table(EngineHandle engine, TableHandle table);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_sfen(EngineHandle engine, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_legal_moves(EngineHandle engine, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_is_legal(EngineHandle engine, byte[] usi_move, out byte @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_perft(EngineHandle engine, uint depth, out ulong @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_evaluate(EngineHandle engine, out int @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_engine_game_state(EngineHandle engine, out int state, out int winner);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_new(byte[] position, out PositionHandle @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_free(IntPtr position);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_set(PositionHandle position, byte[] text);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_play(PositionHandle position, byte[] usi_move);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_undo(PositionHandle position);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_moves_played(PositionHandle position, out uint @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_sfen(PositionHandle position, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_legal_moves(PositionHandle position, [Out] byte[] buf, UIntPtr cap, out UIntPtr out_len);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_is_legal(PositionHandle position, byte[] usi_move, out byte @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_side_to_move(PositionHandle position, out int side, out byte in_check);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_perft(PositionHandle position, uint depth, out ulong @out);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_game_state(PositionHandle position, out int state, out int winner);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int hayanagi_position_evaluate(PositionHandle position, out int @out);
    }
}
