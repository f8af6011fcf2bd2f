#!/bin/sh
# A recipe: aider as a worker's agent. mesh up ROOT --exec "scripts/agents/aider.sh {model}"
# The worker runs it in the scope root with the task's workspace as the last argument (docs/EXECUTORS.md):
# aider gets one message (read HANDOFF.md, do the task, write OUTPUT.md), runs it without asking, commits
# nothing, and stops; the deadline (MESH_DEADLINE, epoch ms) bounds it with `timeout`.
set -eu
model="$1"
workspace="$2"
. "$(dirname "$0")/common.sh"
exec timeout --kill-after=3 "$budget_s" "${AIDER_BIN:-aider}" --message "$instruction" --model "$model" \
  --yes-always --no-auto-commits --read "$workspace/HANDOFF.md" "$workspace/OUTPUT.md"
