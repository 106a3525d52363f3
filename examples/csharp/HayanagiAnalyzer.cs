// A Unity component: analyses a position without blocking the game. The engine searches on
// its own thread; its callbacks only queue events, and Update() (main thread) drains them,
// so Unity objects are touched from the main thread only.
//
// Put Hayanagi.cs and this file under Assets/, the native library under Assets/Plugins/
// (see bindings/csharp/README.md), add the component to a GameObject and press Play.
using Hayanagi;
using UnityEngine;

public class HayanagiAnalyzer : MonoBehaviour
{
    public string position = "startpos moves 7g7f 3c3d";
    public int moveTimeMs = 2000;

    /// <summary>The latest info line and the answer, for a UI to show.</summary>
    public string lastInfo = "";
    public string bestMove = "";
    public int infoCount;

    Engine engine;

    void Start()
    {
        engine = new Engine();
        Analyse(position);
    }

    /// <summary>Analyse another position (e.g. after a move on the board): the running
    /// search is stopped, and its best move never shows: Go drops the queued events of
    /// earlier searches, and TryPoll never returns them.</summary>
    public void Analyse(string newPosition)
    {
        position = newPosition;
        engine.Stop();
        engine.Wait();
        bestMove = "";
        lastInfo = "";
        engine.SetPosition(position);
        engine.Go(Limits.MoveTime(moveTimeMs));
    }

    void Update()
    {
        if (engine == null) return;
        EngineEvent ev;
        while (engine.TryPoll(out ev))
        {
            // Only events of the search started last come out (ev.SearchId tells which).
            switch (ev.Kind)
            {
                case EventKind.Info:
                    infoCount++;
                    lastInfo = ev.Text;
                    Debug.Log(ev.Text);
                    break;
                case EventKind.BestMove:
                    bestMove = ev.BestMove.Move;
                    Debug.Log(ev.Text);
                    break;
                case EventKind.Log:
                    Debug.LogWarning(ev.Text);
                    break;
            }
        }
    }

    void OnDestroy()
    {
        // Stops and joins the search (never leave it to the finalizer in a game: the
        // finalizer thread would wait for the search to stop).
        if (engine != null) engine.Dispose();
        engine = null;
    }
}
