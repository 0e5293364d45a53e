#!/bin/bash
# Sourced by the match scripts that play a pinned build of tengen:
#   pinned_build COMMIT NAME  sets $bin and $arena to matches/{tengen,arena}-NAME-COMMIT,
# building both from COMMIT in a temporary worktree (target dir target/NAME)
# when they are not there yet (matches/ is lost when the machine changes).
# Run from the checkout's root.
pinned_build() {
    local commit=$1 name=$2 root
    root=$(pwd)
    bin=matches/tengen-$name-$commit
    arena=matches/arena-$name-$commit
    if [ -x "$bin" ] && [ -x "$arena" ]; then
        return
    fi
    local src
    src=$(mktemp -d "/tmp/tengen-$name-src.XXXXXX")
    # A failed build must not leave the worktree registered in the checkout.
    trap 'git worktree remove --force "$src"' EXIT
    git worktree add --detach "$src" "$commit" >&2
    (cd "$src" && cargo build --release -q -p tengen-engine -p tengen-arena --target-dir "$root/target/$name") >&2
    git worktree remove --force "$src"
    trap - EXIT
    mkdir -p matches
    cp "target/$name/release/tengen" "$bin"
    cp "target/$name/release/tengen-arena" "$arena"
}
