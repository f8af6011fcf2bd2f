// Lint gate: typescript-eslint recommended rules plus the import direction of docs/ARCHITECTURE.md.
import tseslint from "typescript-eslint";
import globals from "globals";

/** Each layer may import only the layers below it (src → agents → bus, agents → topology). */
const forbid = (...layers) => ({
  "no-restricted-imports": [
    "error",
    {
      patterns: layers.map((layer) => ({
        group: [`**/${layer}`, `**/${layer}/*`, `**/${layer}/**`],
        message: `This layer must not import ${layer}/ (see docs/ARCHITECTURE.md).`,
      })),
    },
  ],
});

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "bench-results/**"] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "off",
    },
  },
  // The browser side of `mesh web` runs in a page, not in Node.
  { files: ["src/web/client/**/*.ts"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["bus/**/*.ts"], rules: forbid("agents", "topology", "src") },
  { files: ["topology/**/*.ts"], rules: forbid("agents", "bus", "src") },
  { files: ["agents/**/*.ts"], rules: forbid("src") },
);
