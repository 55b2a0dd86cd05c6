package io.hexstream.server.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * An HTTP/1.1 server on a loopback port answering the {@code n}th request (from 0) with the bytes {@code responses}
 * gives, as they are, then closing the connection if they are cut short or say so; it checks nothing of the request but
 * reads its head and its {@code Content-Length} body.
 */
public final class CannedHttpServer implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    private final Thread thread;

    public CannedHttpServer(IntFunction<byte[]> responses) throws IOException {
        thread = new Thread(() -> {
            int n = 0;
            while (!socket.isClosed()) {
                try (Socket connection = socket.accept()) {
                    InputStream in = connection.getInputStream();
                    OutputStream out = connection.getOutputStream();
                    for (int length; (length = readHead(in)) >= 0; ) {
                        in.readNBytes(length);
                        byte[] response = responses.apply(n++);
                        out.write(response);
                        out.flush();
                        String text = new String(response, 0, Math.min(response.length, 4096), US_ASCII);
                        if (text.contains("Connection: close") || !complete(response)) {
                            break;
                        }
                    }
                } catch (IOException e) {
                    // the probe closed, or the test is over
                }
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** Reads a request head; returns its Content-Length (0 if none), or -1 at the end of input. */
    private static int readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                return -1;
            }
            head.write(b);
            String text = head.toString(US_ASCII);
            if (text.endsWith("\r\n\r\n")) {
                for (String line : text.split("\r\n")) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        return Integer.parseInt(line.substring(15).strip());
                    }
                }
                return 0;
            }
        }
    }

    /** Whether a canned response is whole: chunked ones end with their last chunk, others are taken as whole. */
    private static boolean complete(byte[] response) {
        String text = new String(response, US_ASCII);
        int body = text.indexOf("\r\n\r\n") + 4;
        int length = text.indexOf("Content-Length: ");
        if (length < 0) {
            return text.endsWith("\r\n\r\n");
        }
        int end = text.indexOf("\r\n", length);
        return response.length - body == Integer.parseInt(text.substring(length + 16, end));
    }

    @Override
    public void close() throws Exception {
        socket.close();
        thread.join(5_000);
    }
}
