// The interface between a Piskvork brain and its pipe front-end, declared
// for pbrain_pela_unix.cpp (tengen's Linux front-end). The names are the
// ones Piskvork's brain sources expect.
#pragma once
#include "windows.h"

extern int width, height;
extern int info_timeout_turn, info_timeout_match, info_time_left;
extern DWORD64 info_max_memory;
extern int info_game_type, info_exact5, info_renju, info_caro, info_continuous;
extern int terminateAI;
extern unsigned start_time;
extern char dataFolder[256];
extern const char *infotext;

void brain_init();
void brain_restart();
void brain_turn();
void brain_my(int x, int y);
void brain_opponents(int x, int y);
void brain_block(int x, int y);
int brain_takeback(int x, int y);
void brain_end();

int pipeOut(const char *fmt, ...);
void do_mymove(int x, int y);
void suggest(int x, int y);

// Used across the brain's files without a declaration in its headers.
struct Tsquare;
bool checkForbid(Tsquare *p, int player);
extern int blockCount;
