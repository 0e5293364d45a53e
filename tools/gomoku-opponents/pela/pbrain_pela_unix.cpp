// A Gomocup ("pbrain") front-end for Linux around the brain of Petr
// Lastovicka's Piskvork (pbrain-pela 7.9, GPL), written for tengen. The
// brain's sources are not in this repository: build.sh fetches them.
// The brain thinks on the main thread (its own clock stops it), so input
// is read between moves only, which is all tengen-arena needs.
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "pisqpipe.h"

int width = 0, height = 0;
int info_timeout_turn = 30000, info_timeout_match = 1000000000, info_time_left = 1000000000;
DWORD64 info_max_memory = 0;
int info_game_type = 1, info_exact5 = 0, info_renju = 0, info_caro = 0, info_continuous = 0;
int terminateAI = 0;
unsigned start_time = 0;
char dataFolder[256] = "";

void init();  // the brain's board reset (piskcomp.cpp)

int pipeOut(const char *fmt, ...) {
    va_list va;
    va_start(va, fmt);
    int n = vprintf(fmt, va);
    va_end(va);
    printf("\n");
    fflush(stdout);
    return n;
}

void do_mymove(int x, int y) {
    brain_my(x, y);
    pipeOut("%d,%d", x, y);
}

void suggest(int x, int y) { pipeOut("SUGGEST %d,%d", x, y); }

static bool get_line(std::string &line) {
    char buf[4096];
    if (!fgets(buf, sizeof buf, stdin)) return false;
    line = buf;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return true;
}

static void turn_start() {
    start_time = GetTickCount();
    terminateAI = 0;
}

static bool in_board(int x, int y) { return x >= 0 && y >= 0 && x < width && y < height; }

int main() {
    std::string line;
    while (get_line(line)) {
        char cmd[64] = "";
        int off = 0;
        if (sscanf(line.c_str(), "%63s%n", cmd, &off) != 1) continue;
        for (char *c = cmd; *c; ++c) *c = (char)toupper((unsigned char)*c);
        const char *rest = line.c_str() + off;
        int x, y, c;
        if (!strcmp(cmd, "START")) {
            if (sscanf(rest, "%d", &x) != 1 || x < 5) { pipeOut("ERROR bad START"); continue; }
            width = height = x;
            brain_init();
        } else if (!strcmp(cmd, "RECTSTART")) {
            if (sscanf(rest, " %d , %d", &x, &y) != 2 || x < 5 || y < 5) { pipeOut("ERROR bad RECTSTART"); continue; }
            width = x;
            height = y;
            brain_init();
        } else if (!strcmp(cmd, "RESTART")) {
            if (!width) { pipeOut("ERROR no START yet"); continue; }
            brain_restart();
        } else if (!strcmp(cmd, "INFO")) {
            char key[64] = "";
            long long v = 0;
            if (sscanf(rest, "%63s %lld", key, &v) != 2) continue;
            for (char *k = key; *k; ++k) *k = (char)tolower((unsigned char)*k);
            // The brain checks its clock only every 1000 nodes and not at
            // all in its first evaluation pass, so on a slow or loaded
            // machine it overruns a tight turn limit: give it 80 % less
            // 50 ms (managers count from their side of the pipe, too).
            if (!strcmp(key, "timeout_turn")) info_timeout_turn = v > 0 ? (int)(v * 4 / 5 - 50 > 20 ? v * 4 / 5 - 50 : 20) : 0;
            else if (!strcmp(key, "timeout_match")) info_timeout_match = (int)v;
            else if (!strcmp(key, "time_left")) info_time_left = (int)v;
            else if (!strcmp(key, "max_memory")) info_max_memory = (DWORD64)v;
            else if (!strcmp(key, "game_type")) info_game_type = (int)v;
            else if (!strcmp(key, "rule")) {
                info_exact5 = (int)(v & 1);
                info_continuous = (int)((v >> 1) & 1);
                info_renju = (int)((v >> 2) & 1);
                info_caro = (int)((v >> 3) & 1);
            }
        } else if (!strcmp(cmd, "BEGIN")) {
            if (!width) { pipeOut("ERROR no START yet"); continue; }
            turn_start();
            brain_turn();
        } else if (!strcmp(cmd, "TURN")) {
            if (sscanf(rest, " %d , %d", &x, &y) != 2 || !in_board(x, y)) { pipeOut("ERROR bad TURN"); continue; }
            turn_start();
            brain_opponents(x, y);
            brain_turn();
        } else if (!strcmp(cmd, "BOARD")) {
            bool ok = width > 0;
            turn_start();
            if (ok) init();  // a fresh board, silently (brain_init prints OK)
            while (get_line(line)) {
                std::string up = line;
                for (auto &ch : up) ch = (char)toupper((unsigned char)ch);
                if (up.rfind("DONE", 0) == 0) break;
                if (sscanf(line.c_str(), " %d , %d , %d", &x, &y, &c) != 3 || !in_board(x, y)) { ok = false; continue; }
                if (!ok) continue;
                if (c == 1) brain_my(x, y);
                else if (c == 2) brain_opponents(x, y);
                else if (c == 3) brain_block(x, y);
            }
            if (!ok) { pipeOut("ERROR bad BOARD"); continue; }
            brain_turn();
        } else if (!strcmp(cmd, "TAKEBACK")) {
            if (sscanf(rest, " %d , %d", &x, &y) != 2 || !in_board(x, y)) { pipeOut("ERROR bad TAKEBACK"); continue; }
            pipeOut(brain_takeback(x, y) == 0 ? "OK" : "ERROR cannot take back");
        } else if (!strcmp(cmd, "ABOUT")) {
            pipeOut("name=\"pela\", %s", infotext);
        } else if (!strcmp(cmd, "END")) {
            brain_end();
            break;
        } else {
            pipeOut("UNKNOWN %s", cmd);
        }
    }
    return 0;
}
