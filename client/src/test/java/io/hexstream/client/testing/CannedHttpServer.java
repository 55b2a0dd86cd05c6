package io.hexstream.client.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;

/**
 * An HTTP/1.1 server on a loopback port (or a Unix domain socket) answering the {@code n}th request (from 0) with the
 * bytes {@code responses} gives, as they are, then closing the connection if they are cut short or say so; it checks
 * nothing of the request but reads its head (kept, {@link #heads()}) and its {@code Content-Length} body.
 */
public final class CannedHttpServer implements AutoCloseable {
    private final ServerSocketChannel socket;
    private final Thread thread;
    private final List<String> heads = new CopyOnWriteArrayList<>();

    public CannedHttpServer(IntFunction<byte[]> responses) throws IOException {
        this(ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8), responses);
    }

    /** The same server on the Unix domain socket {@code path} (a file that does not exist yet). */
    public CannedHttpServer(Path path, IntFunction<byte[]> responses) throws IOException {
        this(
                ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(path), 8),
                responses);
    }

    private CannedHttpServer(ServerSocketChannel socket, IntFunction<byte[]> responses) {
        this.socket = socket;
        thread = new Thread(() -> {
            int n = 0;
            while (socket.isOpen()) {
                try (SocketChannel connection = socket.accept()) {
                    InputStream in = Channels.newInputStream(connection);
                    OutputStream out = Channels.newOutputStream(connection);
                    for (int length; (length = readHead(in, heads)) >= 0; ) {
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

    /** The loopback port (a TCP server only). */
    public int port() {
        try {
            return ((InetSocketAddress) socket.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The heads of the requests read so far, in order, as sent (ASCII); each is kept before its response is written, so
     * a client that has read a response finds its request's head here.
     */
    public List<String> heads() {
        return heads;
    }

    /**
     * A {@code 200} response of {@code body} in chunks of 1 to {@code max} bytes (sizes from {@code seed}), some with a
     * chunk extension, ending with a trailer.
     */
    public static byte[] chunked(byte[] body, int max, long seed) {
        Random random = new Random(seed);
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 2);
        out.writeBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n"
                .getBytes(US_ASCII));
        for (int at = 0; at < body.length; ) {
            int n = Math.min(body.length - at, 1 + random.nextInt(max));
            out.writeBytes((Integer.toHexString(n) + (random.nextInt(8) == 0 ? ";ext=\"v\"" : "") + "\r\n")
                    .getBytes(US_ASCII));
            out.write(body, at, n);
            out.writeBytes("\r\n".getBytes(US_ASCII));
            at += n;
        }
        out.writeBytes("0\r\nX-Trailer: done\r\n\r\n".getBytes(US_ASCII));
        return out.toByteArray();
    }

    /** A response of {@code status} (its reason phrase Netty's) with {@code body} and its {@code Content-Length}. */
    public static byte[] contentLength(int status, String contentType, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 128);
        out.writeBytes(("HTTP/1.1 " + HttpResponseStatus.valueOf(status) + "\r\nContent-Type: " + contentType
                        + "\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Reads a request head into {@code heads}; returns its Content-Length (0 if none), or -1 at the end of input. */
    private static int readHead(InputStream in, List<String> heads) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                return -1;
            }
            head.write(b);
            String text = head.toString(US_ASCII);
            if (text.endsWith("\r\n\r\n")) {
                heads.add(text);
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
