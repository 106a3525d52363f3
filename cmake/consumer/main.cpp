// Downstream C++ consumer used by the install tests: the installed hayanagi.hpp (found
// through hayanagi::cpp or pkg-config's include directory) drives a search through the
// structured API and through the USI text channel.
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "hayanagi.hpp"

int main() {
    try {
        if (!hayanagi::abi_compatible()) {
            std::puts("ABI mismatch");
            return 1;
        }
        hayanagi::Engine engine;
        std::string best;
        engine.on_bestmove([&best](std::string_view move, std::optional<std::string_view>) {
            best = std::string(move);
        });
        engine.set_position("startpos moves 7g7f 3c3d");
        engine.go(hayanagi::Limits().depth(3));
        engine.wait();

        std::mutex m;
        std::vector<std::string> lines;
        engine.on_usi_output([&](std::string_view line) {
            std::lock_guard<std::mutex> lock(m);
            lines.emplace_back(line);
        });
        engine.usi_command("isready");
        bool ready = false;
        {
            std::lock_guard<std::mutex> lock(m);
            for (const auto& l : lines) ready = ready || l == "readyok";
        }
        if (best.empty() || !ready) {
            std::puts("no best move or no readyok");
            return 1;
        }
        std::printf("consumer OK: hayanagi %s abi %u bestmove %s (C++)\n",
                    std::string(hayanagi::version()).c_str(), hayanagi::abi_version(),
                    best.c_str());
        return 0;
    } catch (const hayanagi::Error& e) {
        std::printf("hayanagi::Error: %s\n", e.what());
        return 1;
    }
}
