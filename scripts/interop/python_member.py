#!/usr/bin/env python3
"""A Lattice Mesh member in Python, written from docs/PROTOCOL.md alone (pyzmq + msgpack).

It binds a ROUTER inbox, joins through a seed, answers pings and the ops "ping" and "echo", sends one
"ping" request of its own to the seed node, and leaves with BYE on SIGTERM. It prints JSON lines:
{"event": "ready", ...}, {"event": "reply", ...}, {"event": "nack", ...}, {"event": "stopped"}.

With --probe it also tries the cases PROTOCOL.md settles (§2, §3): answers without `corr` and a NACK with
a bad body, which must not be NACKed back (ids "probe.*"), and a request on a second member connection
before any hello there, which must be served (id "early.1").

With --curve KEYFILE --keyring DIR it joins a secured mesh (§11a, §11b): CURVE server inbox with its own
ZAP handler admitting the keyring's *.pub keys, CURVE links dialled with each peer's card key, a seed given
as ENDPOINT#PUBLICKEY, and one "ping" request sent as a client on the seed connection, signed with `auth`
(id "auth.1"; needs python3-cryptography for X25519).

Usage: python_member.py --id ID --seed ENDPOINT[#KEY] [--probe] [--curve KEYFILE --keyring DIR]
"""
import argparse, glob, hashlib, hmac, json, os, secrets, signal, socket, struct, sys, time, zlib

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


def read_keyring(directory):
    keys = set()
    for path in glob.glob(os.path.join(directory, "*.pub")):
        with open(path) as f:
            key = f.read().strip()
        if len(key) == 40:
            keys.add(key)
    return keys


def auth_mac(secret_z85, node_public_z85, fields):
    """PROTOCOL.md §11b: HMAC-SHA256(X25519(client secret, node public), label NUL id NUL from NUL trace NUL op)."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    from zmq.utils import z85
    shared = X25519PrivateKey.from_private_bytes(z85.decode(secret_z85)).exchange(
        X25519PublicKey.from_public_bytes(z85.decode(node_public_z85)))
    message = "\0".join(["lattice-mesh/auth/1", fields["id"], fields["from"], fields["trace"], fields["op"]])
    return hmac.new(shared, message.encode(), hashlib.sha256).digest()


class Member:
    def __init__(self, node_id, seed, probe=False, curve=None, keyring=None):
        self.probe = probe
        self.id, self.inc, self.counter = node_id, int(time.time() * 1000), 0
        self.ctx = zmq.Context()
        self.keys, self.keyring_dir, self.zap = None, keyring, None
        seed, _, self.seed_key = seed.partition("#")
        if curve:
            if not zmq.has("curve"):
                sys.exit("this libzmq has no CURVE")
            with open(curve) as f:
                self.keys = json.load(f)
            # The ZAP handler (RFC 27) in this context, bound before the inbox.
            self.zap = self.ctx.socket(zmq.ROUTER)
            self.zap.bind("inproc://zeromq.zap.01")
        self.router = self.ctx.socket(zmq.ROUTER)
        if self.keys:
            self.router.setsockopt(zmq.CURVE_SERVER, 1)
            self.router.setsockopt(zmq.CURVE_SECRETKEY, self.keys["secretKey"].encode())
            self.router.setsockopt(zmq.CURVE_PUBLICKEY, self.keys["publicKey"].encode())
            self.router.setsockopt(zmq.ZAP_DOMAIN, b"lattice-mesh")
            self.router.setsockopt(zmq.ZAP_ENFORCE_DOMAIN, 1)
        self.router.setsockopt(zmq.ROUTER_MANDATORY, 1)
        self.router.setsockopt(zmq.ROUTER_HANDOVER, 1)
        self.router.setsockopt(zmq.LINGER, 200)
        port = self.router.bind_to_random_port("tcp://127.0.0.1")
        self.card = {"id": node_id, "incarnation": self.inc, "role": "python", "endpoint": f"tcp://127.0.0.1:{port}",
                     "protocols": [1], "meta": {"language": "python"}, "pid": os.getpid(), "host": socket.gethostname()}
        if self.keys:
            self.card["curve_key"] = self.keys["publicKey"]
        self.dealers = {}  # peer id -> DEALER (routing id = own id)
        self.seed = self.ctx.socket(zmq.DEALER)  # a client connection ("~" id) to bootstrap
        self.client_id = "~" + secrets.token_hex(8)
        self.seed.setsockopt(zmq.ROUTING_ID, self.client_id.encode())
        self.seed.setsockopt(zmq.LINGER, 0)
        self.secure_dealer(self.seed, self.seed_key)
        self.seed.connect(seed)
        self.send(self.seed, "hello", {"card": self.card})
        self.pinged = None
        if self.keys:  # one request as a client, signed with auth (§11b)
            fields = {"id": "auth.1", "from": self.client_id, "trace": secrets.token_hex(16), "op": "ping"}
            self.seed.send(encode({"v": 1, "kind": "request", "id": fields["id"], "from": self.client_id, "inc": self.inc,
                                   "deadline": int(time.time() * 1000) + 5000, "hops": 1, "max_hops": 6,
                                   "path": [self.client_id], "trace": fields["trace"],
                                   "auth": {"key": self.keys["publicKey"], "mac": auth_mac(self.keys["secretKey"], self.seed_key, fields)},
                                   "body": {"op": "ping", "args": {}}}))

    def secure_dealer(self, dealer, server_key):
        if self.keys:
            dealer.setsockopt(zmq.CURVE_SERVERKEY, server_key.encode())
            dealer.setsockopt(zmq.CURVE_PUBLICKEY, self.keys["publicKey"].encode())
            dealer.setsockopt(zmq.CURVE_SECRETKEY, self.keys["secretKey"].encode())

    def on_zap(self):
        # [routing id, "", version, request id, domain, address, identity, mechanism, credentials...]
        frames = self.zap.recv_multipart()
        routing, empty, _, request_id = frames[:4]
        mechanism, key = frames[7], frames[8] if len(frames) > 8 else b""
        from zmq.utils import z85
        public = z85.encode(key).decode() if mechanism == b"CURVE" and len(key) == 32 else ""
        admitted = public in read_keyring(self.keyring_dir)
        self.zap.send_multipart([routing, empty, b"1.0", request_id, b"200" if admitted else b"400",
                                 b"OK" if admitted else b"key not admitted", public.encode() if admitted else b"", b""])

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
        if self.keys and card.get("curve_key") not in read_keyring(self.keyring_dir):
            return  # §11a: a card whose key the keyring does not admit is ignored
        dealer = self.ctx.socket(zmq.DEALER)
        dealer.setsockopt(zmq.ROUTING_ID, self.id.encode())
        if self.keys:
            self.secure_dealer(dealer, card["curve_key"])
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
            if self.zap is not None:
                poller.register(self.zap, zmq.POLLIN)
            for dealer in self.dealers.values():
                poller.register(dealer, zmq.POLLIN)
            for sock, _ in poller.poll(100):
                if sock is self.zap:
                    self.on_zap()
                elif sock is self.router:
                    identity, frame = self.router.recv_multipart()
                    self.on_router(identity, frame)
                else:
                    self.on_dealer(sock.recv())
        for dealer in self.dealers.values():
            self.send(dealer, "bye", {"reason": "stopping"})
            dealer.close()
        self.seed.close()
        self.router.close()
        if self.zap is not None:
            self.zap.close()
        self.ctx.term()
        emit(event="stopped")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--id", required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--probe", action="store_true")
    parser.add_argument("--curve", help="key pair file (mesh keys gen): join a secured mesh")
    parser.add_argument("--keyring", help="directory of admitted *.pub keys")
    options = parser.parse_args()
    Member(options.id, options.seed, options.probe, options.curve, options.keyring).run()
    sys.exit(0)
