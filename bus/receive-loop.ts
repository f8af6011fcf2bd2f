// The read side of a socket: what zeromq.js's async iterator does, without its extra async call, promise
// and { value, done } object per message (each message is one `await` on receive(), no more).

export interface ReceivingSocket {
  readonly closed: boolean;
  receive(): Promise<Buffer[]>;
}

/** Hand each message to `onMessage` until the socket closes; rejects on any other receive error. */
export async function receiveEach(socket: ReceivingSocket, onMessage: (parts: Buffer[]) => void): Promise<void> {
  while (!socket.closed) {
    let parts: Buffer[];
    try {
      parts = await socket.receive();
    } catch (error) {
      // Closing the socket fails the pending receive with EAGAIN: that is the end of the stream.
      if (socket.closed && (error as { code?: unknown }).code === "EAGAIN") return;
      throw error;
    }
    onMessage(parts);
  }
}
