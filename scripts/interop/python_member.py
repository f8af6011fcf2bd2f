#!/usr/bin/env python3
"""A Lattice Mesh member in Python, written from docs/PROTOCOL.md alone (pyzmq + msgpack).

It binds a ROUTER inbox, joins through a seed, answers pings and the ops "ping" and "echo", sends one
"ping" request of its own to the seed node, and leaves with BYE on SIGTERM. It prints JSON lines:
{"event": "ready", ...}, {"event": "reply", ...}, {"event": "nack", ...}, {"event": "stopped"}.

With --probe it also tries the cases PROTOCOL.md settles (§2, §3): answers without `corr` and a NACK with
a bad body, which must not be NACKed back (ids "probe.*"), and a request on a second member connection
before any hello there, which must be served (id "early.1").

Usage: python_member.py --id ID --seed ENDPOINT [--probe]
"""
import argparse, json, os, secrets, signal, socket, struct, sys, time, zlib

import msgpack
import zmq

MAGIC, VERSION, HEADER = 0x4C4D, 1, ">HBBII"


def encode(envelope):
    payload = msgpack.packb(envelope, use_bin_type=True)
    return struct.pack(HEADER, MAGIC, VERSION, 0, len(payload), zlib.crc32(payload)) + payload


def decode(frame):
    if len(frame) < 12:
        raise ValueError("malformed_payload")
    magic, version, flags, length, crc = struct.unpack(HEADER, frame[:12])
    payload = frame[12:]
    if magic != MAGIC or length != len(payload):
        raise ValueError("malformed_payload")
    if version != VERSION or flags != 0:
        raise ValueError("version_unsupported")
    if zlib.crc32(payload) != crc:
        raise ValueError("crc_mismatch")
    return msgpack.unpackb(payload, raw=False)


def emit(**event):
    print(json.dumps(event), flush=True)


class Member:
    def __init__(self, node_id, seed, probe=False):
        self.probe = probe
        self.id, self.inc, self.counter = node_id, int(time.time() * 1000), 0
        self.ctx = zmq.Context()
        self.router = self.ctx.socket(zmq.ROUTER)
        self.router.setsockopt(zmq.ROUTER_MANDATORY, 1)
        self.router.setsockopt(zmq.ROUTER_HANDOVER, 1)
        self.router.setsockopt(zmq.LINGER, 200)
        port = self.router.bind_to_random_port("tcp://127.0.0.1")
        self.card = {"id": node_id, "incarnation": self.inc, "role": "python", "endpoint": f"tcp://127.0.0.1:{port}",
                     "protocols": [1], "meta": {"language": "python"}, "pid": os.getpid(), "host": socket.gethostname()}
        self.dealers = {}  # peer id -> DEALER (routing id = own id)
        self.seed = self.ctx.socket(zmq.DEALER)  # a client connection ("~" id) to bootstrap
        self.seed.setsockopt(zmq.ROUTING_ID, ("~" + secrets.token_hex(8)).encode())
        self.seed.setsockopt(zmq.LINGER, 0)
        self.seed.connect(seed)
        self.send(self.seed, "hello", {"card": self.card})
        self.pinged = None

    def envelope(self, kind, body, **extra):
        self.counter += 1
        env = {"v": 1, "kind": kind, "id": f"py.{self.counter}", "from": self.id, "inc": self.inc, "body": body}
        env.update(extra)
        return env

    def send(self, sock, kind, body, identity=None, **extra):
        frame = encode(self.envelope(kind, body, **extra))
        sock.send_multipart([identity, frame] if identity is not None else [frame])

    def learn(self, card):
        if card["id"] == self.id or card["id"] in self.dealers:
            return
        dealer = self.ctx.socket(zmq.DEALER)
        dealer.setsockopt(zmq.ROUTING_ID, self.id.encode())
        dealer.setsockopt(zmq.LINGER, 200)
        dealer.connect(card["endpoint"])
        self.dealers[card["id"]] = dealer
        self.send(dealer, "hello", {"card": self.card})
        if self.pinged is None:  # our own request: the first peer we learn gets a "ping"
            self.pinged = card["id"]
            self.send(dealer, "request", {"op": "ping", "args": {}}, deadline=int(time.time() * 1000) + 5000,
                      hops=1, max_hops=6, path=[self.id], trace=secrets.token_hex(16))
            if self.probe:
                self.send_probes(dealer, card["endpoint"])

    def send_probes(self, dealer, endpoint):
        base = {"v": 1, "from": self.id, "inc": self.inc}
        for kind, body, extra in (("reply", {"result": 1}, {}), ("pong", {}, {}), ("cancel", {}, {}),
                                  ("nack", {"code": "no_such_code", "detail": "", "retryable": "maybe"}, {"corr": "x"})):
            dealer.send(encode({**base, "kind": kind, "id": f"probe.{kind}", "body": body, **extra}))
        # A second member connection whose first message is a request, not a hello.
        early = self.ctx.socket(zmq.DEALER)
        early.setsockopt(zmq.ROUTING_ID, (self.id + ".early").encode())
        early.setsockopt(zmq.LINGER, 0)
        early.connect(endpoint)
        early.send(encode({**base, "from": self.id + ".early", "kind": "request", "id": "early.1",
                           "deadline": int(time.time() * 1000) + 5000, "hops": 1, "max_hops": 6,
                           "path": [self.id + ".early"], "body": {"op": "ping", "args": {}}}))
        self.dealers[self.id + ".early"] = early

    def on_router(self, identity, frame):
        try:
            env = decode(frame)
        except ValueError as error:
            return self.send(self.router, "nack", {"code": str(error), "detail": "bad frame", "retryable": True}, identity)
        kind = env.get("kind")
        if kind == "hello":
            self.learn(env["body"]["card"])
            self.send(self.router, "hello", {"card": self.card}, identity)
            self.send(self.router, "gossip", {"cards": [self.card]}, identity)
        elif kind == "ping":
            self.send(self.router, "pong", {}, identity, corr=env["id"])
        elif kind == "gossip":
            for card in env["body"]["cards"]:
                self.learn(card)
        elif kind == "request":
            op, args = env["body"]["op"], env["body"].get("args")
            if op == "echo":
                self.send(self.router, "reply", {"result": args}, identity, corr=env["id"])
            elif op == "ping":
                self.send(self.router, "reply", {"result": {"id": self.id, "incarnation": self.inc}}, identity, corr=env["id"])
            else:
                self.send(self.router, "nack", {"code": "unknown_op", "detail": op, "retryable": False}, identity, corr=env["id"])

    def on_dealer(self, frame):
        env = decode(frame)
        if env["kind"] in ("hello",):
            self.learn(env["body"]["card"])
        elif env["kind"] == "gossip":
            for card in env["body"]["cards"]:
                self.learn(card)
        elif env["kind"] in ("reply", "nack"):
            emit(event=env["kind"], frm=env["from"], corr=env.get("corr"), body=env["body"])

    def run(self):
        stop = []
        signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
        emit(event="ready", id=self.id, endpoint=self.card["endpoint"])
        while not stop:
            poller = zmq.Poller()
            poller.register(self.router, zmq.POLLIN)
            poller.register(self.seed, zmq.POLLIN)
            for dealer in self.dealers.values():
                poller.register(dealer, zmq.POLLIN)
            for sock, _ in poller.poll(100):
                if sock is self.router:
                    identity, frame = self.router.recv_multipart()
                    self.on_router(identity, frame)
                else:
                    self.on_dealer(sock.recv())
        for dealer in self.dealers.values():
            self.send(dealer, "bye", {"reason": "stopping"})
            dealer.close()
        self.seed.close()
        self.router.close()
        self.ctx.term()
        emit(event="stopped")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--id", required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--probe", action="store_true")
    options = parser.parse_args()
    Member(options.id, options.seed, options.probe).run()
    sys.exit(0)
