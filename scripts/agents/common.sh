# Sourced by the agent-CLI recipes: the seconds left before the task's deadline (MESH_DEADLINE, epoch
# ms; 5 s of margin, at least 1), and the one instruction every agent gets.
now_ms=$(($(date +%s) * 1000))
budget_s=$(( (${MESH_DEADLINE:-$((now_ms + 600000))} - now_ms) / 1000 - 5 ))
[ "$budget_s" -gt 0 ] || budget_s=1
instruction="You are a worker agent of a Lattice Mesh fleet. Read $workspace/HANDOFF.md and do its task within its scope. \
Write your result to $workspace/OUTPUT.md in exactly the format its Return Requirements give, then stop."
