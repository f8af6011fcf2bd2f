// What a non-code file is for: documentation (O4), building and configuring (O5), or plain text.
import path from "node:path";

export type TextRole =
  | "readme"
  | "doc_file"
  | "makefile"
  | "kconfig"
  | "package_json"
  | "workflow"
  | "dockerfile"
  | "shell"
  | "cmake"
  | "ini_like"
  | "config"
  | "text";

const DOC_EXTENSIONS = new Set([".md", ".markdown", ".rst", ".adoc"]);
const CONFIG_EXTENSIONS = new Set([".json", ".jsonc", ".yml", ".yaml", ".toml", ".ini", ".cfg", ".conf", ".xml", ".properties"]);
const DOC_DIRECTORY = /(^|\/)(docs?|Documentation)\//;
const WORKFLOW_PATH = /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$|(^|\/)\.gitlab-ci\.ya?ml$|(^|\/)\.circleci\/config\.ya?ml$/;

/** The role of a text file, by name and, for extension-less scripts, by its shebang. */
export function textRole(filePath: string, content: string): TextRole {
  const base = path.posix.basename(filePath);
  const extension = path.posix.extname(base).toLowerCase();
  if (/^readme/i.test(base)) return "readme";
  if (DOC_EXTENSIONS.has(extension) || (extension === ".txt" && DOC_DIRECTORY.test(filePath))) return "doc_file";
  if (/^(GNU)?makefile$/i.test(base) || base === "Kbuild" || extension === ".mk") return "makefile";
  if (/^Kconfig/.test(base)) return "kconfig";
  if (base === "package.json") return "package_json";
  if (WORKFLOW_PATH.test(filePath)) return "workflow";
  if (/^(Dockerfile|Containerfile)/.test(base) || extension === ".dockerfile") return "dockerfile";
  if (base === "CMakeLists.txt" || extension === ".cmake") return "cmake";
  if ([".sh", ".bash", ".zsh"].includes(extension) || /^#!.*\b(ba|z|da)?sh\b/.test(content)) return "shell";
  if (/^(pyproject\.toml|setup\.cfg|tox\.ini)$/.test(base) || [".toml", ".ini", ".cfg"].includes(extension)) return "ini_like";
  if (CONFIG_EXTENSIONS.has(extension) || /^requirements.*\.txt$/.test(base) || base.startsWith(".")) return "config";
  return "text";
}

/** Python files that build or package the project are operational as well as code. */
export function isBuildScript(filePath: string): boolean {
  return /(^|\/)(setup|noxfile|fabfile|conftest)\.py$/.test(filePath);
}
