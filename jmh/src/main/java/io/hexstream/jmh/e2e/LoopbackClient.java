package io.hexstream.jmh.e2e;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A client that sends a request and reads the whole response, body included (by {@code Content-Length}, or chunk by
 * chunk when the server streams {@code Transfer-Encoding: chunked}), into a reused buffer: no JSON parsing, nothing
 * kept. Keep-alive: one connection for every request; per request: a fresh connection for each, closed by the server
 * after its response ({@code Connection: close}), the connect counted in the time.
 */
final class LoopbackClient implements EngineConnection {
    private final InetSocketAddress server;
    private final boolean perRequest;
    private final byte[] sink = new byte[1 << 16];
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private Socket socket;
    private OutputStream out;
    private InputStream in;

    LoopbackClient(InetSocketAddress server, boolean perRequest) throws IOException {
        this.server = server;
        this.perRequest = perRequest;
        if (!perRequest) {
            connect();
        }
    }

    /** The request for {@code body} with a bearer token; {@code Connection: close} when {@code close}. */
    static byte[] request(String token, String body, boolean close) {
        return request(token, "/", "application/json", body.getBytes(StandardCharsets.US_ASCII), close);
    }

    /** A {@code POST path} of {@code body} (any bytes) as {@code contentType}, with a bearer token. */
    static byte[] request(String token, String path, String contentType, byte[] body, boolean close) {
        byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer " + token
                        + "\r\nContent-Type: " + contentType + "\r\nContent-Length: " + body.length
                        + (close ? "\r\nConnection: close" : "") + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] request = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        return request;
    }

    /** Sends {@code request} and reads the response to its last byte; returns the body's length. */
    @Override
    public long exchange(byte[] request) throws IOException {
        return exchange(request, null);
    }

    /** Sends {@code request} and returns the whole body (for the untimed checks). */
    @Override
    public byte[] fetch(byte[] request) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 20);
        exchange(request, body);
        return body.toByteArray();
    }

    private long exchange(byte[] request, ByteArrayOutputStream keep) throws IOException {
        if (perRequest) {
            connect();
        }
        try {
            out.write(request);
            out.flush();
            long length = readHead();
            long body = length >= 0 ? readBody(length, keep) : readChunks(keep);
            if (perRequest && in.read() != -1) {
                throw new IOException("the server did not close the connection after the response");
            }
            return body;
        } finally {
            if (perRequest) {
                socket.close();
            }
        }
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(server);
        out = socket.getOutputStream();
        // Buffered: a chunked body's size lines are read a byte at a time, which must not cost a
        // system call each (it would slow the streaming peer's client, not the peer). Reads of a whole
        // sink's worth bypass the buffer.
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** The head's {@code Content-Length}, or -1 for a chunked body. */
    private long readHead() throws IOException {
        String status = readLine();
        if (!status.startsWith("HTTP/1.1 200 ")) {
            throw new IOException("unexpected response: " + status);
        }
        long length = -2;
        for (String header; !(header = readLine()).isEmpty(); ) {
            if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(header.substring(15).trim());
            } else if (header.regionMatches(true, 0, "transfer-encoding:", 0, 18)
                    && header.substring(18).trim().equalsIgnoreCase("chunked")) {
                length = -1;
            }
        }
        if (length == -2) {
            throw new IOException("neither content-length nor chunked");
        }
        return length;
    }

    private long readBody(long length, ByteArrayOutputStream keep) throws IOException {
        for (long left = length; left > 0; ) {
            int n = in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                throw new IOException("connection closed with " + left + " body bytes to go");
            }
            if (keep != null) {
                keep.write(sink, 0, n);
            }
            left -= n;
        }
        return length;
    }

    private long readChunks(ByteArrayOutputStream keep) throws IOException {
        long total = 0;
        for (long size; (size = Long.parseLong(readLine().split(";")[0].trim(), 16)) > 0; ) {
            total += readBody(size, keep);
            if (!readLine().isEmpty()) {
                throw new IOException("no CRLF after a chunk");
            }
        }
        while (!readLine().isEmpty()) {
            // trailers: none expected
        }
        return total;
    }

    private String readLine() throws IOException {
        line.reset();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                throw new IOException("connection closed in a line of the response");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
        }
    }
}
