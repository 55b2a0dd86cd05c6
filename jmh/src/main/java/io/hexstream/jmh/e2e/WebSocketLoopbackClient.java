package io.hexstream.jmh.e2e;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The {@code ws} connection kind: one WebSocket (RFC 6455) on the Engine API port, upgraded once with a JWT; each
 * request a masked text frame, each reply read frame by frame (a text frame and continuation frames) to the final one
 * into a reused buffer.
 */
final class WebSocketLoopbackClient implements EngineConnection {
    /** The masking key of every frame sent: a benchmark need not vary it (RFC 6455 5.3 asks it of browsers). */
    private static final byte[] MASK = {0x37, (byte) 0xfa, 0x21, 0x3d};

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final byte[] sink = new byte[1 << 16];

    WebSocketLoopbackClient(InetSocketAddress server, String token) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(server);
        out = socket.getOutputStream();
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        out.write(("GET / HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                        + "Authorization: Bearer " + token + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        for (int matched = 0; matched < 4; ) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the upgrade's answer");
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
        if (!head.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 101 ")) {
            socket.close();
            throw new IOException("no upgrade: " + head.toString(StandardCharsets.US_ASCII));
        }
    }

    /** {@code json} as one masked text frame. */
    static byte[] frame(String json) {
        byte[] payload = json.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write(0x81);
        if (payload.length < 126) {
            frame.write(0x80 | payload.length);
        } else if (payload.length < 65536) {
            frame.write(0x80 | 126);
            frame.write(payload.length >>> 8);
            frame.write(payload.length);
        } else {
            frame.write(0x80 | 127);
            for (int shift = 56; shift >= 0; shift -= 8) {
                frame.write((int) ((long) payload.length >>> shift));
            }
        }
        frame.write(MASK, 0, 4);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ MASK[i & 3]);
        }
        return frame.toByteArray();
    }

    @Override
    public long exchange(byte[] request) throws IOException {
        return exchange(request, null);
    }

    @Override
    public byte[] fetch(byte[] request) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 20);
        exchange(request, body);
        return body.toByteArray();
    }

    private long exchange(byte[] request, ByteArrayOutputStream keep) throws IOException {
        out.write(request);
        out.flush();
        long total = 0;
        boolean fin;
        do {
            int first = in.readUnsignedByte();
            int second = in.readUnsignedByte();
            fin = (first & 0x80) != 0;
            int opcode = first & 0x0F;
            if (opcode > 1) {
                throw new IOException("frame with opcode " + opcode + " in a reply");
            }
            long length = second & 0x7F;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            total += length;
            while (length > 0) {
                int n = in.read(sink, 0, (int) Math.min(sink.length, length));
                if (n < 0) {
                    throw new IOException("closed in a frame");
                }
                if (keep != null) {
                    keep.write(sink, 0, n);
                }
                length -= n;
            }
        } while (!fin);
        return total;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
