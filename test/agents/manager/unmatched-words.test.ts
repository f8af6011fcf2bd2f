// The audit record says which of the question's words no function of the fleet has in its name, class, file,
// directory or doc comment: what a reader of `mesh trace` needs to see why a long question covers little of
// itself, or why an off-topic one found nothing. Python parsed for real; the manager's answer in-process.
import { describe, expect, it } from "vitest";
import { answerOver, withScopes } from "../../helpers/scopes.js";

const SOURCES: Record<string, Record<string, string>> = {
  mail: {
    "mail/smtp.py": ["def send_message(message):", '    """Sends a mail message to the server."""', "    return deliver(message)", "", "def deliver(message):", "    return message", ""].join("\n"),
  },
};

const scopes = withScopes("mesh-unmatched-", SOURCES);

describe("the words no function has", () => {
  it("are a decision of the answer, and none is listed when every word is some function's", async () => {
    const unmatched = (result: Awaited<ReturnType<typeof answerOver>>) => result.decisions?.find((d) => d.detail.startsWith("no function of the fleet has these words"))?.detail;
    expect(unmatched(await answerOver(scopes(), "How does send_message hand a mail message to the server over a quantum teleporter?"))).toBe(
      "no function of the fleet has these words of the question in its name, class, file, directory or doc: hand, quantum, teleport",
    );
    expect(unmatched(await answerOver(scopes(), "How does send_message deliver a mail message?"))).toBeUndefined();
  });
});
