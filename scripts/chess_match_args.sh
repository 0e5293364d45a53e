#!/bin/bash
# Sourced by the chess match scripts (chess_fsf_match.sh, chess_ref_match.sh,
# chess_tc_screen.sh), so they play exactly the same match around their
# engines:
#   chess_match_args TC SRAND ROUNDS OUT  sets $match_args: UCI, TC with a
# 100 ms margin, 16 MiB of hash each, ROUNDS pairs of games on
# data/openings/chess-8ply.epd in the order SRAND draws, colours swapped,
# two games at a time, -recover and -resume, records OUT.{pgn,json}.
# The order of the arguments is part of a resumable match's journal:
# keep it.
chess_match_args() {
    local tc=$1 srand=$2 rounds=$3 out=$4
    match_args=(-each proto=uci tc="$tc" timemargin=100 option.Hash=16 -games 2 -rounds "$rounds" -repeat
        -openings file=data/openings/chess-8ply.epd format=epd order=random -srand "$srand"
        -concurrency 2 -recover -resume -pgnout "$out.pgn" -jsonout "$out.json")
}
