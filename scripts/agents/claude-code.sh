#!/bin/sh
# A recipe: Claude Code as a worker's agent. mesh up ROOT --exec "scripts/agents/claude-code.sh {model}"
# The worker runs it in the scope root with the task's workspace as the last argument (docs/EXECUTORS.md):
# Claude Code reads HANDOFF.md there, works in the scope, and writes OUTPUT.md there; the deadline
# (MESH_DEADLINE, epoch ms) bounds it with `timeout`, a little before the worker stops the process group.
set -eu
model="$1"
workspace="$2"
. "$(dirname "$0")/common.sh"
exec timeout --kill-after=3 "$budget_s" "${CLAUDE_BIN:-claude}" -p "$instruction" --model "$model" \
  --permission-mode acceptEdits --add-dir "$workspace" --output-format text
