// A Gomocup ("pbrain") front-end for the gomoku AI of KDE's Bovo (by
// Pelladi Gabor, GPL-2.0-or-later), so that tengen-arena can play it.
// Written for tengen; the AI itself is not in this repository: build.sh
// fetches Bovo's sources and compiles this file against ai/gabor/.
//
// Supported: START n (5..22), RECTSTART w,h, RESTART, BEGIN, TURN, BOARD,
// TAKEBACK, INFO (timeout_turn, timeout_match, time_left, max_depth, rule),
// ABOUT, END. The AI knows only freestyle (five or more wins).
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ai_interface.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Deadline : AiTimeOver {
    Clock::time_point at;
    bool isTimeOver() override { return Clock::now() >= at; }
};

struct Brain {
    AiInterface ai;
    Deadline deadline;
    int w = 0, h = 0;
    // 0 empty, 1 first player's stone, 2 second player's.
    std::vector<int> cells;
    std::vector<std::pair<int, int>> history;
    long long timeout_turn = 5000, timeout_match = 0, time_left = -1;
    int fixed_depth = 0;

    Brain() {
        ai.setPrintInfo(false);
        ai.setTimeOver(&deadline);
    }

    bool start(int x, int y) {
        if (x < 5 || y < 5 || x > max_table_size || y > max_table_size) return false;
        w = x;
        h = y;
        ai.setTableSizeX(static_cast<pos_T>(w));
        ai.setTableSizeY(static_cast<pos_T>(h));
        reset();
        return true;
    }

    void reset() {
        cells.assign(static_cast<size_t>(w * h), 0);
        history.clear();
        ai.newGame();
    }

    bool free_point(int x, int y) const {
        return w > 0 && x >= 0 && y >= 0 && x < w && y < h && cells[static_cast<size_t>(y * w + x)] == 0;
    }

    void play(int x, int y) {
        cells[static_cast<size_t>(y * w + x)] = history.size() % 2 == 0 ? 1 : 2;
        history.emplace_back(x, y);
        ai.step(static_cast<pos_T>(x), static_cast<pos_T>(y));
    }

    // Thinks and plays the chosen move; returns it.
    std::pair<int, int> think() {
        long long budget = timeout_turn > 0 ? timeout_turn : 1000;
        if (time_left >= 0) {
            long long share = time_left / 10;
            if (share < budget) budget = share;
        }
        budget -= 60;  // answer latency
        if (budget < 5) budget = 5;
        if (fixed_depth > 0) {
            ai.setDepth(fixed_depth);
            ai.setForceThinking(true);
        } else {
            ai.setStartDepth(2);
            ai.setMaxDepth(40);
            ai.setDepthIncrement(1);
        }
        deadline.at = Clock::now() + std::chrono::milliseconds(budget);
        Field f = ai.think();
        int x = f.x, y = f.y;
        if (!free_point(x, y)) {
            // Out of time before the first iteration finished: the
            // nearest free point to the last stone keeps the game legal.
            std::pair<int, int> best(-1, -1);
            long best_d = 1L << 30;
            int lx = history.empty() ? w / 2 : history.back().first;
            int ly = history.empty() ? h / 2 : history.back().second;
            for (int yy = 0; yy < h; ++yy)
                for (int xx = 0; xx < w; ++xx)
                    if (free_point(xx, yy)) {
                        long d = (xx - lx) * (xx - lx) + (yy - ly) * (yy - ly);
                        if (d < best_d) { best_d = d; best = {xx, yy}; }
                    }
            x = best.first;
            y = best.second;
        }
        if (x >= 0) play(x, y);
        return {x, y};
    }
};

bool parse_xy(const std::string& s, int& x, int& y) {
    char comma = 0;
    std::istringstream in(s);
    return static_cast<bool>(in >> x >> comma >> y) && comma == ',';
}

std::string upper(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

void say(const std::string& line) {
    std::cout << line << "\n" << std::flush;
}

void answer_move(Brain& b) {
    auto m = b.think();
    if (m.first < 0) {
        say("ERROR board full");
    } else {
        say(std::to_string(m.first) + "," + std::to_string(m.second));
    }
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    Brain b;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        cmd = upper(cmd);
        std::string rest;
        std::getline(in, rest);
        if (cmd.empty()) continue;
        if (cmd == "START") {
            int n = std::atoi(rest.c_str());
            say(b.start(n, n) ? "OK" : "ERROR board size 5..22 only");
        } else if (cmd == "RECTSTART") {
            int x, y;
            say(parse_xy(rest, x, y) && b.start(x, y) ? "OK" : "ERROR board size 5..22 only");
        } else if (cmd == "RESTART") {
            if (b.w == 0) { say("ERROR no START yet"); continue; }
            b.reset();
            say("OK");
        } else if (cmd == "INFO") {
            std::istringstream kv(rest);
            std::string key;
            long long v = 0;
            kv >> key >> v;
            key = upper(key);
            if (key == "TIMEOUT_TURN") b.timeout_turn = v;
            else if (key == "TIMEOUT_MATCH") b.timeout_match = v;
            else if (key == "TIME_LEFT") b.time_left = v;
            else if (key == "MAX_DEPTH") b.fixed_depth = v > 0 && v < 60 ? static_cast<int>(v) : 0;
        } else if (cmd == "BEGIN") {
            if (b.w == 0 || !b.history.empty()) { say("ERROR BEGIN needs a new game"); continue; }
            answer_move(b);
        } else if (cmd == "TURN") {
            int x, y;
            if (!parse_xy(rest, x, y) || !b.free_point(x, y)) { say("ERROR bad point"); continue; }
            b.play(x, y);
            answer_move(b);
        } else if (cmd == "BOARD") {
            std::vector<std::pair<int, int>> own, opp;
            bool ok = b.w > 0;
            while (std::getline(std::cin, line)) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (upper(line) == "DONE") break;
                int x, y, c;
                char c1 = 0, c2 = 0;
                std::istringstream li(line);
                if (!(li >> x >> c1 >> y >> c2 >> c) || c1 != ',' || c2 != ',') { ok = false; continue; }
                if (c == 1) own.emplace_back(x, y);
                else if (c == 2) opp.emplace_back(x, y);
                else ok = false;
            }
            if (!ok) { say("ERROR bad BOARD"); continue; }
            // Whoever has more stones moved first; equal counts: we did.
            bool own_first = own.size() >= opp.size();
            auto& first = own_first ? own : opp;
            auto& second = own_first ? opp : own;
            if (first.size() > second.size() + 1) { say("ERROR unbalanced BOARD"); continue; }
            b.reset();
            for (size_t i = 0; i < first.size() && ok; ++i) {
                for (auto* list : {&first, &second}) {
                    if (i >= list->size()) continue;
                    auto p = (*list)[i];
                    if (!b.free_point(p.first, p.second)) { ok = false; break; }
                    b.play(p.first, p.second);
                }
            }
            if (!ok) { b.reset(); say("ERROR bad BOARD"); continue; }
            answer_move(b);
        } else if (cmd == "TAKEBACK") {
            int x, y;
            if (!parse_xy(rest, x, y) || b.history.empty() || b.history.back() != std::make_pair(x, y)) {
                say("ERROR can only take back the last stone");
                continue;
            }
            b.cells[static_cast<size_t>(y * b.w + x)] = 0;
            b.history.pop_back();
            b.ai.undo();
            say("OK");
        } else if (cmd == "ABOUT") {
            say("name=\"Bovo-Gabor\", version=\"KDE Bovo 22.12 AI\", author=\"Pelladi Gabor (AI); tengen (pbrain wrapper)\", country=\"HU\"");
        } else if (cmd == "END") {
            break;
        } else {
            say("UNKNOWN " + cmd);
        }
    }
    return 0;
}
