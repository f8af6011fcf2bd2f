// Language by file name: the parser to use, and names that are binary without reading them.
import path from "node:path";
import type { Language } from "../types.js";

const LANGUAGE_BY_EXTENSION: ReadonlyMap<string, Language> = new Map([
  [".c", "c"],
  [".h", "c"],
  [".cc", "cpp"],
  [".cpp", "cpp"],
  [".cxx", "cpp"],
  [".hpp", "cpp"],
  [".hh", "cpp"],
  [".hxx", "cpp"],
  [".ts", "typescript"],
  [".mts", "typescript"],
  [".cts", "typescript"],
  [".tsx", "tsx"],
  [".js", "javascript"],
  [".mjs", "javascript"],
  [".cjs", "javascript"],
  [".jsx", "javascript"],
  [".py", "python"],
  [".pyi", "python"],
]);

/** Extensions never worth reading: compiled objects, archives, media, fonts, databases. */
const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    ".o .a .so .dylib .dll .exe .obj .lib .ko .wasm .class .jar .pyc .pyo .node .bin .elf .img .iso " +
    ".zip .gz .tgz .xz .bz2 .zst .7z .rar .tar .png .jpg .jpeg .gif .bmp .ico .webp .tiff .psd .pdf " +
    ".mp3 .mp4 .mov .avi .wav .ogg .flac .woff .woff2 .ttf .otf .eot .sqlite .db .dat .pack .idx"
  ).split(" "),
);

const HEADER_EXTENSIONS: ReadonlySet<string> = new Set([".h", ".hh", ".hpp", ".hxx"]);

/** The language of a file; anything without a grammar is "text". */
export function languageForPath(filePath: string): Language {
  return LANGUAGE_BY_EXTENSION.get(path.posix.extname(filePath).toLowerCase()) ?? "text";
}

export function hasBinaryExtension(filePath: string): boolean {
  return BINARY_EXTENSIONS.has(path.posix.extname(filePath).toLowerCase());
}

export function isHeaderPath(filePath: string): boolean {
  return HEADER_EXTENSIONS.has(path.posix.extname(filePath).toLowerCase());
}
