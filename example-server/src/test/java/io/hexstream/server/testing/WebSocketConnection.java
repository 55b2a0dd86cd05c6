package io.hexstream.server.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.security.MessageDigest;
import java.util.Random;

/**
 * One WebSocket connection to a loopback port over a plain socket, written from RFC 6455 alone, for what the JDK's
 * {@code java.net.http.WebSocket} hides: the frames as they arrive (opcode, FIN, payload length), control frames,
 * messages split into frames at will, reading part of a reply and hanging up, or not reading at all. Close it to close
 * the socket.
 */
public final class WebSocketConnection implements AutoCloseable {
    public static final int CONTINUATION = 0x0;
    public static final int TEXT = 0x1;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    /** One frame as read: its FIN bit, opcode and payload (unmasked: a server does not mask). */
    public record Frame(boolean fin, int opcode, byte[] payload) {}

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final Random masks = new Random(7);

    private WebSocketConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }

    /** Connects to {@code 127.0.0.1:port} without a handshake yet. */
    public static WebSocketConnection connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        return new WebSocketConnection(socket);
    }

    /** Connects and upgrades with {@code token} as bearer; fails unless the server answers {@code 101}. */
    public static WebSocketConnection open(int port, String token) throws IOException {
        WebSocketConnection connection = connect(port);
        try {
            connection.send(upgrade(token, "dGhlIHNhbXBsZSBub25jZQ=="));
            String head = connection.readHead();
            if (!head.startsWith("HTTP/1.1 101 ")) {
                throw new IOException("no upgrade: " + head);
            }
            return connection;
        } catch (IOException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The bytes of an upgrade request ({@code GET /}) with {@code key}, and {@code token} as bearer unless null. */
    public static byte[] upgrade(String token, String key) {
        return ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n"
                        + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n")
                .getBytes(US_ASCII);
    }

    public Socket socket() {
        return socket;
    }

    /** Writes {@code bytes} as they are. */
    public void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads an HTTP response head, up to and including its blank line. */
    public String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(256);
        for (int matched = 0; matched < 4; ) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed in a response head: " + head.toString(US_ASCII));
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
        return head.toString(US_ASCII);
    }

    /** Reads exactly {@code n} bytes. */
    public byte[] readExactly(int n) throws IOException {
        byte[] bytes = new byte[n];
        in.readFully(bytes);
        return bytes;
    }

    /** Reads the next byte, or -1 at the end of the stream. */
    public int read() throws IOException {
        return in.read();
    }

    /** Sends {@code text} as one text message in one frame. */
    public void sendText(String text) throws IOException {
        sendFrame(true, TEXT, text.getBytes(UTF_8));
    }

    /** Sends one frame, masked as a client must (RFC 6455 5.3). */
    public void sendFrame(boolean fin, int opcode, byte[] payload) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream(payload.length + 14);
        frame.write((fin ? 0x80 : 0) | opcode);
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
        byte[] mask = new byte[4];
        masks.nextBytes(mask);
        frame.write(mask, 0, 4);
        for (int i = 0; i < payload.length; i++) {
            frame.write(payload[i] ^ mask[i & 3]);
        }
        send(frame.toByteArray());
    }

    /** Reads one frame. */
    public Frame readFrame() throws IOException {
        int first = in.readUnsignedByte();
        int second = in.readUnsignedByte();
        if ((second & 0x80) != 0) {
            throw new IOException("a server frame is masked");
        }
        long length = second & 0x7F;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        byte[] payload = readExactly(Math.toIntExact(length));
        return new Frame((first & 0x80) != 0, first & 0x0F, payload);
    }

    /** A text message read whole, frame by frame: its payload's SHA-256, length, and frame count and sizes. */
    public record Message(byte[] sha256, long length, int frames, int largestFrame) {}

    /** Reads frames up to the final one of a text message, hashing the payloads; fails on any other frame. */
    public Message readMessage() throws IOException {
        MessageDigest sha256 = HttpConnection.sha256();
        long length = 0;
        int frames = 0;
        int largest = 0;
        for (Frame frame = null; frame == null || !frame.fin(); ) {
            frame = readFrame();
            int expected = frames == 0 ? TEXT : CONTINUATION;
            if (frame.opcode() != expected) {
                throw new IOException("frame " + frames + " has opcode " + frame.opcode() + ", not " + expected);
            }
            sha256.update(frame.payload());
            length += frame.payload().length;
            largest = Math.max(largest, frame.payload().length);
            frames++;
        }
        return new Message(sha256.digest(), length, frames, largest);
    }

    /** Reads a text message whole into a string. */
    public String readText() throws IOException {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (Frame frame = null; frame == null || !frame.fin(); ) {
            frame = readFrame();
            text.write(frame.payload());
        }
        return text.toString(UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
