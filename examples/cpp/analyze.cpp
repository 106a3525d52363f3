// Analyse a position through the C++ wrapper: info lines stream, then the best move.
//
//   analyze_cpp [position] [movetime_ms]
//
// position is USI position syntax ("startpos moves 7g7f 3c3d", "sfen <SFEN>"); default
// "startpos"; movetime defaults to 3000 ms. The C twin is examples/c/analyze.c.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "hayanagi.hpp"

int main(int argc, char** argv) {
    const std::string position = argc > 1 ? argv[1] : "startpos";
    long movetime = argc > 2 ? std::strtol(argv[2], nullptr, 10) : 3000;
    if (movetime <= 0) movetime = 3000;

    try {
        hayanagi::Engine engine;
        engine.set_position(position);

        // Both callbacks run on the engine's search thread; stdout is only written from
        // there until wait() returns.
        engine.on_info([](const hayanagi_info&, std::string_view usi_line) {
            std::printf("%.*s\n", static_cast<int>(usi_line.size()), usi_line.data());
            std::fflush(stdout);
        });
        engine.on_bestmove([](std::string_view best, std::optional<std::string_view> ponder) {
            if (ponder) {
                std::printf("bestmove %.*s ponder %.*s\n", static_cast<int>(best.size()),
                            best.data(), static_cast<int>(ponder->size()), ponder->data());
            } else {
                std::printf("bestmove %.*s\n", static_cast<int>(best.size()), best.data());
            }
            std::fflush(stdout);
        });

        engine.go(hayanagi::Limits().movetime(std::chrono::milliseconds(movetime)));
        engine.wait();
    } catch (const hayanagi::Error& e) {
        std::fprintf(stderr, "analyze: %s\n", e.what());
        return 2;
    }
    return 0;
}
