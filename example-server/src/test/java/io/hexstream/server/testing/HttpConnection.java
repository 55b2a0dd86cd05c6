package io.hexstream.server.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.time.Duration;

/**
 * One HTTP/1.1 connection to a loopback port over a plain socket, for what {@link EngineClient}'s {@code HttpClient}
 * hides: pipelining, sending a request a byte at a time, reading part of a response and hanging up (with FIN or RST),
 * or not reading at all. Responses are read as they arrive: the head, then the body in pieces, hashed or dropped, never
 * parsed. Close it to close the socket.
 */
public final class HttpConnection implements AutoCloseable {
    /** Bytes read at a time from a body; allocated on the first body read, so idle connections cost little heap. */
    private static final int READ_BUFFER = 1 << 16;

    /** A response head as read. */
    public record Head(int status, long contentLength, String text) {
        /** Bytes of the head on the wire, the blank line included. */
        public int size() {
            return text.length();
        }
    }

    /** A response read whole: its head, body length and the body's SHA-256. */
    public record Digested(Head head, long length, byte[] sha256) {}

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private byte[] sink;

    private HttpConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new BufferedInputStream(socket.getInputStream());
    }

    /** Connects to {@code 127.0.0.1:port}. */
    public static HttpConnection open(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        try {
            socket.setTcpNoDelay(true);
            return new HttpConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** The bytes of a keep-alive {@code POST /} of {@code json}, with {@code token} as bearer unless {@code null}. */
    public static byte[] post(String token, String json) {
        byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String head = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
        byte[] request = new byte[head.length() + body.length];
        System.arraycopy(head.getBytes(US_ASCII), 0, request, 0, head.length());
        System.arraycopy(body, 0, request, head.length(), body.length);
        return request;
    }

    public Socket socket() {
        return socket;
    }

    /** Writes {@code bytes} in one call and flushes. */
    public void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads a response head, up to and including its blank line. */
    public Head readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(256);
        for (int matched = 0; matched < 4; ) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed in a response head after " + head.size() + " bytes");
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String text = head.toString(US_ASCII);
        long length = -1;
        for (String line : text.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(line.substring(15).trim());
            }
        }
        int status = text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : -1;
        if (status == 204 && length < 0) {
            length = 0; // a 204 has no body, and no content-length (RFC 9110, 8.6)
        }
        if (status < 0 || length < 0) {
            throw new IOException("not an HTTP/1.1 response head with a content-length: " + text);
        }
        return new Head(status, length, text);
    }

    /** Reads the body of {@code head}'s response into an array. */
    public byte[] readBody(Head head) throws IOException {
        return readExactly(head.contentLength());
    }

    /** Reads exactly {@code n} bytes into an array. */
    public byte[] readExactly(long n) throws IOException {
        byte[] bytes = in.readNBytes(Math.toIntExact(n));
        if (bytes.length < n) {
            throw new EOFException("connection closed after " + bytes.length + " of " + n + " bytes");
        }
        return bytes;
    }

    /** Reads a whole response, hashing the body as it arrives. */
    public Digested readDigested() throws IOException {
        Head head = readHead();
        MessageDigest sha256 = sha256();
        byte[] sink = sink();
        long left = head.contentLength();
        while (left > 0) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                throw new EOFException(
                        "connection closed with " + left + " of " + head.contentLength() + " body bytes to go");
            }
            sha256.update(sink, 0, n);
            left -= n;
        }
        return new Digested(head, head.contentLength(), sha256.digest());
    }

    /**
     * Reads and drops up to {@code n} bytes (head and body alike); returns how many came before the end of the stream.
     */
    public long discard(long n) throws IOException {
        byte[] sink = sink();
        long read = 0;
        while (read < n) {
            int got = in.read(sink, 0, (int) Math.min(sink.length, n - read));
            if (got < 0) {
                break;
            }
            read += got;
        }
        return read;
    }

    /**
     * Whether the server closes the connection within {@code timeout}, reading (and dropping) whatever it still sends;
     * false if it is still open then.
     */
    public boolean closedByServerWithin(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
                if (in.read(sink()) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) { // reset by the server: closed too
            return true;
        } finally {
            socket.setSoTimeout(0);
        }
    }

    private byte[] sink() {
        if (sink == null) {
            sink = new byte[READ_BUFFER];
        }
        return sink;
    }

    /** Closes with a reset (SO_LINGER 0) instead of a FIN: the server's next read or write fails. */
    public void abort() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A new SHA-256 digest. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
