package io.hexstream.jmh.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection that sends a request and reads the whole response, body
 * included, into a reused buffer: no JSON parsing, nothing kept.
 */
final class LoopbackClient implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final byte[] sink = new byte[1 << 16];
    private final ByteArrayOutputStream head = new ByteArrayOutputStream(256);

    LoopbackClient(InetSocketAddress server) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(server);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** The request for {@code body} with a bearer token. */
    static byte[] request(String token, String body) {
        return ("POST / HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** Sends {@code request} and reads the response to its last byte; returns the body's length. */
    long exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        long length = readHead();
        for (long left = length; left > 0; ) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                throw new IOException("connection closed with " + left + " body bytes to go");
            }
            left -= n;
        }
        return length;
    }

    /** Sends {@code request} and returns the whole body (for the untimed checks). */
    byte[] fetch(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        return in.readNBytes((int) readHead());
    }

    private long readHead() throws IOException {
        head.reset();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed in the response head");
            }
            head.write(b);
            matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        if (!text.startsWith("HTTP/1.1 200 ")) {
            throw new IOException("unexpected response: " + text.lines().findFirst().orElse(""));
        }
        for (String line : text.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                return Long.parseLong(line.substring(15).trim());
            }
        }
        throw new IOException("no content-length in " + text);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
