import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn processes and bind sockets; two cores, so keep parallelism modest.
    pool: "forks",
    maxWorkers: 2,
    teardownTimeout: 10_000,
  },
});
