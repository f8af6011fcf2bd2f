// When the best chain is not reported: it does not begin at the function the question names as code, and it
// covers less than 0.25 of the question or its code names fewer than two of the question's words (a
// function's name, class, file or directory). The matches are the workers' own (matchTerms), the question
// parsed as the manager parses it; the chains are built as the trace builds them (toStep of search steps).
import { describe, expect, it } from "vitest";
import { MIN_NAMED_TERMS, NO_CHAIN_FULL_TERMS, NO_CHAIN_THRESHOLD, namedTerms, namedTermsNeeded, noChainThreshold, tooLittle } from "../../../agents/manager/answer/too-little.js";
import { toStep, type TraceOutcome } from "../../../agents/manager/search/trace-chain.js";
import { parseQuestion } from "../../../agents/search/question.js";
import { matchTerms, type FieldTerms } from "../../../agents/search/relevance.js";
import { tokenize } from "../../../agents/pgc/retrieval/index.js";
import type { SearchStep } from "../../../agents/protocol/index.js";

type Question = ReturnType<typeof parseQuestion>;

/** A chain of one scope whose steps are functions named `symbols`, each with a doc comment `doc`, in `file`. */
function chain(question: Question, file: string, steps: { symbol: string; doc?: string }[], coverage: number): TraceOutcome {
  const searchSteps: SearchStep[] = steps.map(({ symbol, doc }, i) => {
    const fields: FieldTerms = { symbol: new Set([symbol.toLowerCase()]), name: new Set(tokenize(symbol)), file: new Set(tokenize(file)), ...(doc ? { doc: new Set(tokenize(doc)) } : {}) };
    return { symbol, qualified: symbol, kind: "function", file_path: file, line_start: 10 * i + 1, line_end: 10 * i + 5, cite: { line_start: 10 * i + 1, line_end: 10 * i + 5, sha256: "0".repeat(64) }, matches: matchTerms(question, fields) };
  });
  const chainSteps = searchSteps.map((s, i) => toStep(s, "lib", "lib-1", i === 0 ? null : { file_path: file, line: 10 * i - 7, text: `${s.symbol}()`, sha256: "0".repeat(64) }));
  const result = { scope: "lib", resolved: true, steps: searchSteps, leads: [] };
  const args = { question, mode: "forward" as const, from: { symbol: steps[0]?.symbol ?? "" }, covered: {} };
  return { steps: chainSteps, hops: [{ scope: "lib", agent: "lib-1", args, result, steps: chainSteps, failovers: 0 }], decisions: [], coverage, stopped_because: "" };
}

describe("tooLittle", () => {
  const webrtc = parseQuestion("How does this library stream video frames to a WebRTC peer connection?");

  it("refuses a chain covering less than the threshold, whatever it names", () => {
    const low = chain(webrtc, "app/stream.py", [{ symbol: "stream_video_frames" }], NO_CHAIN_THRESHOLD - 0.01);

    expect(tooLittle(webrtc, low)).toBe(`the best chain, from stream_video_frames in lib, covers only ${(NO_CHAIN_THRESHOLD - 0.01).toFixed(2)} of the question; below ${NO_CHAIN_THRESHOLD}`);
  });

  it("refuses a chain whose code shares one word with the question by its names, the rest only by doc comments", () => {
    const shared = chain(webrtc, "app/files.py", [{ symbol: "open_stream", doc: "Frames of video sent to a peer connection." }, { symbol: "read_block" }], 0.3);

    expect([...namedTerms(shared)]).toEqual(["stream"]);
    expect(tooLittle(webrtc, shared)).toBe(`the best chain, from open_stream in lib, names only stream of the question's words in its code's names (functions, classes, files, directories); at least ${MIN_NAMED_TERMS} are needed`);
  });

  it("reports a chain naming two of the question's words, across its steps or its files", () => {
    const twoSteps = chain(webrtc, "app/files.py", [{ symbol: "open_stream" }, { symbol: "send_video" }], 0.3);
    const byFile = chain(webrtc, "app/webrtc.py", [{ symbol: "open_stream" }], 0.3);

    expect(tooLittle(webrtc, twoSteps)).toBeNull();
    expect(tooLittle(webrtc, byFile)).toBeNull();
    expect([...namedTerms(byFile)].sort()).toEqual(["stream", "webrtc"]);
  });

  it("asks a question of fewer words for fewer: one less than it has", () => {
    const oneWord = parseQuestion("What does urlopen do?");
    const twoWords = parseQuestion("How are cookies stored?");
    const fromUrlopen = chain(oneWord, "urllib/request.py", [{ symbol: "urlopen" }, { symbol: "build_opener" }], 1);
    const cookies = chain(twoWords, "http/cookiejar.py", [{ symbol: "set_cookie", doc: "Stores a cookie." }], 0.47);

    expect([namedTermsNeeded(oneWord), namedTermsNeeded(twoWords), namedTermsNeeded(webrtc)]).toEqual([0, 1, MIN_NAMED_TERMS]);
    expect(tooLittle(oneWord, fromUrlopen)).toBeNull();
    expect([...namedTerms(cookies)]).toEqual(["cooki"]);
    expect(tooLittle(twoWords, cookies)).toBeNull();
  });

  it("reports a chain beginning at the function the question names as code, though its names hold that one word", () => {
    const question = parseQuestion("What does `open` do with a descriptor and its flags?");
    const named = chain(question, "app/files.py", [{ symbol: "open" }, { symbol: "read_block" }], 0.6);
    const other = chain(question, "app/files.py", [{ symbol: "open_file" }, { symbol: "read_block" }], 0.6);

    expect([...namedTerms(named)]).toEqual(["open"]);
    expect(tooLittle(question, named)).toBeNull();
    expect(tooLittle(question, other)).toMatch(/names only open of the question's words/);
  });

  it("reports a chain beginning at the function the question names as code, though it covers little of a long question", () => {
    // Tried on Linux's input layer: the chain from input_event() to evdev's buffer covered 0.24 of the question.
    const question = parseQuestion("After a driver reports events with input_event(), how are they copied with a timestamp into the buffer of every process reading the device and the readers woken up?");
    const named = chain(question, "drivers/input/input.c", [{ symbol: "input_event" }, { symbol: "input_pass_values" }], NO_CHAIN_THRESHOLD - 0.05);
    const other = chain(question, "drivers/input/input.c", [{ symbol: "input_handle_event" }, { symbol: "input_pass_values" }], NO_CHAIN_THRESHOLD - 0.05);

    expect(tooLittle(question, named)).toBeNull();
    expect(tooLittle(question, other)).toMatch(/covers only/);
  });

  it(`asks of a question of more than NO_CHAIN_FULL_TERMS (${NO_CHAIN_FULL_TERMS}) terms only NO_CHAIN_THRESHOLD of a question that long`, () => {
    // Tried on Linux's SPI-NOR stack: the chain from the MTD ioctl to the status register covered 0.24 of such a question.
    const long = parseQuestion("On a board whose SPI NOR flash uses the generic status-register block protection, when a tool issues the MEMLOCK ioctl on /dev/mtdN, how does the request end up writing the new block-protect bits into the status register?");
    const short = parseQuestion("How does the flash lock its blocks?");
    expect(long.terms.length).toBeGreaterThan(NO_CHAIN_FULL_TERMS);
    expect(short.terms.length).toBeLessThanOrEqual(NO_CHAIN_FULL_TERMS);
    expect(noChainThreshold(long)).toBeCloseTo((NO_CHAIN_THRESHOLD * NO_CHAIN_FULL_TERMS) / long.terms.length, 10);
    expect(noChainThreshold(short)).toBe(NO_CHAIN_THRESHOLD);

    const steps = [{ symbol: "mtdchar_ioctl" }, { symbol: "spi_nor_lock" }, { symbol: "spi_nor_write_sr" }];
    const covering = (question: Question, coverage: number) => chain(question, "drivers/mtd/spi-nor/core.c", steps, coverage);
    expect(tooLittle(long, covering(long, 0.23))).toBeNull();
    expect(tooLittle(short, covering(short, 0.23))).toBe(`the best chain, from mtdchar_ioctl in lib, covers only 0.23 of the question; below ${NO_CHAIN_THRESHOLD}`);
    // Below the scaled bar the decision says which bar it was.
    expect(tooLittle(long, covering(long, 0.1))).toBe(`the best chain, from mtdchar_ioctl in lib, covers only 0.10 of the question; below ${noChainThreshold(long).toFixed(2)} (${NO_CHAIN_THRESHOLD} for a question of up to ${NO_CHAIN_FULL_TERMS} terms; it has ${long.terms.length})`);
  });
});
