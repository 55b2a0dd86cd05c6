package io.hexstream.server.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * A server of one connection written on raw socket bytes, for a client facing a hostile or unusual peer: on a loopback
 * TCP port or a Unix domain socket, it accepts one connection and runs the test's {@link Script} on its streams, with
 * helpers that speak HTTP/1.1 and WebSocket (RFC 6455) by hand, apart from any library the client uses. An
 * {@link IOException} in the script (the client has gone) ends it quietly; anything else is rethrown by
 * {@link #close()}.
 */
public final class ScriptedServer implements AutoCloseable {
    public static final int TEXT = 0x1;
    public static final int CLOSE = 0x8;
    public static final int PING = 0x9;
    public static final int PONG = 0xA;

    /** What the server does with the connection. */
    public interface Script {
        void run(InputStream in, OutputStream out) throws IOException;
    }

    /** A frame the client sent, unmasked. */
    public record Frame(boolean fin, int opcode, byte[] payload) {}

    private final ServerSocketChannel socket;
    private final Thread thread;
    private volatile Throwable failure;

    private ScriptedServer(ServerSocketChannel socket, Script script) {
        this.socket = socket;
        this.thread = new Thread(() -> {
            try (SocketChannel connection = socket.accept()) {
                script.run(Channels.newInputStream(connection), Channels.newOutputStream(connection));
            } catch (IOException e) {
                // the client closed, or the test is over
            } catch (Throwable e) {
                failure = e;
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    /** A server on a loopback TCP port. */
    public static ScriptedServer tcp(Script script) throws IOException {
        ServerSocketChannel socket = ServerSocketChannel.open();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return new ScriptedServer(socket, script);
    }

    /** A server on the Unix domain socket {@code path}. */
    public static ScriptedServer unix(Path path, Script script) throws IOException {
        ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        socket.bind(UnixDomainSocketAddress.of(path));
        return new ScriptedServer(socket, script);
    }

    public int port() throws IOException {
        return ((InetSocketAddress) socket.getLocalAddress()).getPort();
    }

    // ---------------------------------------------------------------- HTTP/1.1

    /** Reads a request's head and its {@code Content-Length} body; returns the head. */
    public static String readRequest(InputStream in) throws IOException {
        String head = readHead(in);
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                in.readNBytes(Integer.parseInt(line.substring(15).strip()));
            }
        }
        return head;
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection ended inside a head");
            }
            head.write(b);
        }
        return head.toString(US_ASCII);
    }

    /** Writes {@code bytes} as one chunk of a chunked body. */
    public static void chunk(OutputStream out, byte[] bytes) throws IOException {
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(US_ASCII));
    }

    // ---------------------------------------------------------------- WebSocket

    /** Reads the client's upgrade request and answers it with {@code 101} and the key's accept (section 4.2.2). */
    public static void acceptWebSocket(InputStream in, OutputStream out) throws IOException {
        String key = null;
        for (String line : readHead(in).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-key:")) {
                key = line.substring(18).strip();
            }
        }
        if (key == null) {
            throw new AssertionError("an upgrade without Sec-WebSocket-Key");
        }
        String accept;
        try {
            accept = Base64.getEncoder()
                    .encodeToString(MessageDigest.getInstance("SHA-1")
                            .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n")
                .getBytes(US_ASCII));
        out.flush();
    }

    /** A server's frame header (unmasked, section 5.2) for a payload of {@code length} bytes. */
    public static byte[] frameHeader(int opcode, boolean fin, long length) {
        int first = (fin ? 0x80 : 0) | opcode;
        if (length < 126) {
            return new byte[] {(byte) first, (byte) length};
        }
        if (length < 65_536) {
            return new byte[] {(byte) first, 126, (byte) (length >>> 8), (byte) length};
        }
        byte[] header = new byte[10];
        header[0] = (byte) first;
        header[1] = 127;
        for (int i = 0; i < 8; i++) {
            header[2 + i] = (byte) (length >>> (56 - 8 * i));
        }
        return header;
    }

    /** Reads one frame of the client's and unmasks it (a client masks every frame, section 5.3). */
    public static Frame readFrame(InputStream in) throws IOException {
        byte[] head = in.readNBytes(2);
        if (head.length < 2) {
            throw new EOFException("the connection ended before a frame");
        }
        long length = head[1] & 0x7F;
        if (length == 126) {
            length = ((in.read() & 0xFF) << 8) | (in.read() & 0xFF);
        } else if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = (length << 8) | (in.read() & 0xFF);
            }
        }
        if ((head[1] & 0x80) == 0) {
            throw new AssertionError("an unmasked frame from the client");
        }
        byte[] mask = in.readNBytes(4);
        byte[] payload = in.readNBytes(Math.toIntExact(length));
        for (int i = 0; i < payload.length; i++) {
            payload[i] ^= mask[i % 4];
        }
        return new Frame((head[0] & 0x80) != 0, head[0] & 0x0F, payload);
    }

    @Override
    public void close() throws Exception {
        socket.close();
        thread.join(10_000);
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure instanceof Exception e) {
            throw e;
        }
    }
}
