// An event registry over a real fleet: the endpoint emits `needs-retry.<service>.<op>`, the retries scope
// registers its handler's method for `needs-retry.<service>`, and a traced chain crosses from the emitting
// method into the handler — the line naming the event and the line registering the handler both cited,
// hashed and checked, and the answer saying which event it went through (PGC.md rule 11).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citationHash } from "../../../agents/protocol/index.js";
import { CorpusFleet } from "../../helpers/corpus-fleet.js";

const SOURCES: Record<string, string> = {
  "botocore/endpoint.py": `class Endpoint:
    """Sends requests for a client and retries them when its handlers ask to."""

    def __init__(self, event_emitter):
        self._event_emitter = event_emitter

    def _needs_retry(self, attempts, operation_model, response=None):
        """Ask the registered handlers whether a failed attempt is retried."""
        service_id = operation_model.service_id
        event_name = f"needs-retry.{service_id}.{operation_model.name}"
        responses = self._event_emitter.emit(event_name, response=response, attempts=attempts)
        return first_non_none_response(responses)


def first_non_none_response(responses):
    for _, response in responses:
        if response is not None:
            return response
    return None
`,
  "botocore/retries/standard.py": `class RetryHandler:
    """Decides whether a throttled or failed call is retried, and how long to wait."""

    def __init__(self, retry_policy):
        self._retry_policy = retry_policy

    def needs_retry(self, **kwargs):
        """Connect as a handler to the needs-retry event."""
        if self._retry_policy.should_retry(kwargs):
            return compute_backoff(kwargs.get("attempts", 1))
        return None


def compute_backoff(attempts):
    """Exponential backoff for a throttled retry."""
    return min(20, 2 ** attempts)


def register_retry_handler(client, service_event_name):
    handler = RetryHandler(retry_policy=None)
    client.meta.events.register(
        'needs-retry.%s' % service_event_name,
        handler.needs_retry,
    )
    return handler
`,
};

const SCOPES: Record<string, string> = { endpoint: "botocore/endpoint.py", retries: "botocore/retries" };

let fleet: CorpusFleet;

beforeAll(async () => {
  fleet = await CorpusFleet.start("mesh-event-", SOURCES, SCOPES);
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
});

describe("an event registry, across scopes", () => {
  it("goes from the method emitting the event to the handler another scope registers for it", async () => {
    const result = await fleet.manager.ask("How does Endpoint._needs_retry hand a failed attempt to the retry handler that computes the backoff?");
    expect(result.outcome).toBe("chain");
    const chain = result.chain ?? [];
    expect(chain.map((s) => `${s.scope}:${s.symbol}`).slice(0, 3)).toEqual(["endpoint:Endpoint._needs_retry", "retries:RetryHandler.needs_retry", "retries:compute_backoff"]);
    const site = chain[1]?.call_site;
    // The call line is where the code names the event; the binding, where the handler is registered for it.
    expect(site?.text).toContain('f"needs-retry.');
    expect(site?.bound_at).toMatchObject({ field: "event:needs-retry", file_path: "botocore/retries/standard.py" });
    expect(fleet.lineOf("botocore/retries/standard.py", site?.bound_at?.line ?? 0)).toContain("handler.needs_retry,");
    expect(citationHash(fleet.lineOf("botocore/retries/standard.py", site?.bound_at?.line ?? 0))).toBe(site?.bound_at?.sha256);
    for (const hop of result.knowledge_chain) expect(hop.verdict.status).toBe("accepted");
    expect(result.answer).toMatch(/as a handler of the event "needs-retry", registered at botocore\/retries\/standard\.py:\d+/);
  });

  it("names the emitting method as the handler's caller, not the function registering it", async () => {
    const result = await fleet.manager.ask("Which functions call RetryHandler.needs_retry?");
    const callers = (result.chain ?? []).slice(1).map((s) => s.symbol);
    expect(callers).toContain("Endpoint._needs_retry");
    expect(callers).not.toContain("register_retry_handler");
  });
});
