#!/bin/sh
# A recipe: Claude Code as a worker's agent. mesh up ROOT --exec "scripts/agents/claude-code.sh {model}"
# The worker runs it in the scope root with the task's workspace as the last argument (docs/EXECUTORS.md):
# Claude Code reads HANDOFF.md there, works in the scope, and writes OUTPUT.md there; the deadline
# (MESH_DEADLINE, epoch ms) bounds it with `timeout`, a little before the worker stops the process group.
set -eu
model="$1"
workspace="$2"
now_ms=$(($(date +%s) * 1000))
budget_s=$(( (${MESH_DEADLINE:-$((now_ms + 600000))} - now_ms) / 1000 - 5 ))
[ "$budget_s" -gt 0 ] || budget_s=1
prompt="You are a worker agent of a Lattice Mesh fleet. Read $workspace/HANDOFF.md and do its task within its scope. \
Write your result to $workspace/OUTPUT.md in exactly the format its Return Requirements give, then stop."
exec timeout --kill-after=3 "$budget_s" "${CLAUDE_BIN:-claude}" -p "$prompt" --model "$model" \
  --permission-mode acceptEdits --add-dir "$workspace" --output-format text
