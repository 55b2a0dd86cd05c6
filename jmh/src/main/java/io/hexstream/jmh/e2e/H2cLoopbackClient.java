package io.hexstream.jmh.e2e;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code h2c} and {@code h2c-shared} connection kinds: HTTP/2 over cleartext TCP with prior knowledge (RFC 9113
 * 3.3), written by hand over a blocking {@link Socket} ({@code TCP_NODELAY}) as the lean counterpart of
 * {@link LoopbackClient}, so that HTTP/2 against HTTP/1.1 measures the server, not the client (a general-purpose HTTP/2
 * stack on an event loop of its own cost the client more than the server's HTTP/2 did). {@code h2c}: a connection per
 * client; {@code h2c-shared}: every client's streams on one connection. One implementation serves both.
 *
 * <p>Connection (RFC 9113 3.4, 6.5, 6.9): the client preface, a SETTINGS frame ({@code SETTINGS_ENABLE_PUSH} 0,
 * {@code SETTINGS_INITIAL_WINDOW_SIZE} the stream's window of its {@link Settings}, by default hyper's 2 MiB: #793 asks
 * for at least 1 MiB, and {@code SETTINGS_MAX_FRAME_SIZE} where it is not HTTP/2's default) and a WINDOW_UPDATE on
 * stream 0 opening the connection's window, which starts at 65,535 bytes whatever the settings, to the connection's
 * (hyper's 5 MiB, whatever the streams the connection carries, as hyper does). The server cuts the body into DATA
 * frames of at most the frame size (by default HTTP/2's {@value #DEFAULT_MAX_FRAME_SIZE} bytes, as hyper leaves it: a
 * 35.2 MB JSON reply is about 2,150 frames), and a larger frame fails the connection. One daemon thread per connection
 * reads the socket at most {@value #READ_SIZE} bytes at a time (as {@link LoopbackClient} reads a body) into a reused
 * buffer (at least {@value #READ_BUFFER} bytes, room for four of the largest frames) and hands each frame to its stream
 * where it lies, so every byte is copied once, from the socket, as over HTTP/1.1: the server's SETTINGS acked (RFC 9113
 * 6.5.3), a PING answered with a PING ack of its 8 bytes (6.7), PRIORITY and WINDOW_UPDATE ignored, RST_STREAM (6.4)
 * failing its stream's exchange and GOAWAY (6.8) those of the streams above its last stream id (every stream, with an
 * error code other than {@code NO_ERROR}), each with an {@link IOException} naming the error code. Writes (requests,
 * WINDOW_UPDATEs, acks) are serialised on a lock over a {@link BufferedOutputStream}, flushed per request and per
 * window update. The request bodies (a few KiB) stay within the windows the server opens and returns, so the client
 * keeps no count of its own send windows.
 *
 * <p>Request (RFC 9113 8.3.1, RFC 7541): the HTTP/1.1 request it is given ({@link LoopbackClient#request},
 * {@link SszMode#request}), translated once per distinct request into a header block of {@code :method},
 * {@code :scheme} {@code http}, {@code :path}, {@code :authority} (from {@code Host}) and the other fields, names lower
 * case, the connection-specific ones dropped ({@code Connection}, {@code Keep-Alive}, {@code Transfer-Encoding},
 * {@code Upgrade}; RFC 9113 8.2.2), each field a literal without indexing with a new name (RFC 7541 6.2.2: 0x00, then
 * name and value as strings without Huffman coding, lengths as 7-bit-prefix integers, 5.1), sent as one HEADERS frame
 * with END_HEADERS on the next odd stream id, then the body as DATA frames of at most {@value #DEFAULT_MAX_FRAME_SIZE}
 * bytes (the server's frame size is not read from its SETTINGS: it is at least that), the last with END_STREAM.
 *
 * <p>Reply: the HEADERS block must begin with 0x88, {@code :status 200} as an indexed field (RFC 7541 6.1, static table
 * index 8), as Netty's HPACK encoder writes it; anything else fails the exchange with the block's first bytes. The rest
 * of the block and any CONTINUATION are read and ignored (no dynamic table is kept: nothing else is decoded). DATA
 * frames (PADDED honoured, 6.1) are counted and their payload left in the buffer, or copied for {@link #fetch}; once
 * half a stream's window, or half the connection's, is consumed, a WINDOW_UPDATE returns it (as a client returning
 * credit as it reads would: the h2 crate's threshold), and DATA past a window fails the connection (6.9.1, a
 * {@code FLOW_CONTROL_ERROR}). END_STREAM ends the exchange, the time to last byte with it.
 */
final class H2cLoopbackClient implements EngineConnection {
    /**
     * What a client advertises for the server's DATA: its receive windows (RFC 9113 6.9.2), each returned by a
     * WINDOW_UPDATE once half of it is consumed, as the h2 crate returns them, and the largest frame it takes (6.5.2).
     *
     * @param streamWindow {@code SETTINGS_INITIAL_WINDOW_SIZE}, in bytes
     * @param connectionWindow the connection's window, in bytes: opened from HTTP/2's 65,535 by a WINDOW_UPDATE on
     *     stream 0
     * @param maxFrameSize {@code SETTINGS_MAX_FRAME_SIZE}, in bytes: from HTTP/2's 16,384 to 16,777,215
     */
    record Settings(int streamWindow, int connectionWindow, int maxFrameSize) {
        /**
         * hyper's HTTP/2 client, under reqwest in Lighthouse's SSZ-REST client: 2 MiB a stream, 5 MiB the connection,
         * HTTP/2's 16 KiB frames (hyper {@code src/proto/h2/client.rs}: {@code DEFAULT_STREAM_WINDOW},
         * {@code DEFAULT_CONN_WINDOW}, {@code DEFAULT_MAX_FRAME_SIZE}).
         */
        static final Settings HYPER = new Settings(2 << 20, 5 << 20, DEFAULT_MAX_FRAME_SIZE);

        Settings {
            if (streamWindow < DEFAULT_WINDOW || connectionWindow < DEFAULT_WINDOW) {
                throw new IllegalArgumentException(
                        "windows below HTTP/2's 65,535 bytes: " + streamWindow + ", " + connectionWindow);
            }
            if (maxFrameSize < DEFAULT_MAX_FRAME_SIZE || maxFrameSize > MAX_FRAME_SIZE_LIMIT) {
                throw new IllegalArgumentException("a frame size outside HTTP/2's " + DEFAULT_MAX_FRAME_SIZE + " to "
                        + MAX_FRAME_SIZE_LIMIT + " bytes: " + maxFrameSize);
            }
        }

        /** These settings with the windows {@code STREAM,CONNECTION} in bytes, e.g. {@code 1048576,4194304}. */
        Settings withWindows(String pair) {
            String[] bytes = pair.split(",");
            if (bytes.length != 2) {
                throw new IllegalArgumentException("h2c windows: STREAM,CONNECTION in bytes, not " + pair);
            }
            return new Settings(Integer.parseInt(bytes[0]), Integer.parseInt(bytes[1]), maxFrameSize);
        }

        /** These settings with {@code SETTINGS_MAX_FRAME_SIZE} {@code bytes}. */
        Settings withMaxFrameSize(int bytes) {
            return new Settings(streamWindow, connectionWindow, bytes);
        }
    }

    /** HTTP/2's {@code SETTINGS_MAX_FRAME_SIZE} until a peer's SETTINGS say more, and the least it may say (6.5.2). */
    static final int DEFAULT_MAX_FRAME_SIZE = 1 << 14;
    /** The largest {@code SETTINGS_MAX_FRAME_SIZE} HTTP/2 allows (RFC 9113 6.5.2). */
    static final int MAX_FRAME_SIZE_LIMIT = (1 << 24) - 1;
    /** The most the reader asks of the socket at once, in bytes: {@link LoopbackClient}'s sink. */
    static final int READ_SIZE = 1 << 16;
    /**
     * The least of the reader's buffer, in bytes: room for a read beside several of the largest frames, so that a frame
     * cut by a read is moved to the front once every few frames (on average half a frame).
     */
    static final int READ_BUFFER = 1 << 18;
    /** The largest frames the reader's buffer has room for, beside a read. */
    private static final int FRAMES_BUFFERED = 4;
    /** How long a reply may take before the exchange fails. */
    static final int REPLY_TIMEOUT_SECONDS = 120;

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DEFAULT_WINDOW = 65_535;
    private static final int DATA = 0x0;
    private static final int HEADERS = 0x1;
    private static final int RST_STREAM = 0x3;
    private static final int SETTINGS = 0x4;
    private static final int PING = 0x6;
    private static final int GOAWAY = 0x7;
    private static final int WINDOW_UPDATE = 0x8;
    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final int END_HEADERS = 0x4;
    private static final int PADDED = 0x8;
    private static final int PRIORITY = 0x20;
    private static final int CANCEL = 0x8;
    /** {@code :status 200} as an HPACK indexed field (RFC 7541 6.1, Appendix A index 8). */
    private static final int STATUS_200 = 0x88;
    /** Connection-specific fields, not carried in HTTP/2 (RFC 9113 8.2.2); {@code host} becomes {@code :authority}. */
    private static final Set<String> DROPPED =
            Set.of("connection", "keep-alive", "transfer-encoding", "upgrade", "host");
    /** RFC 9113 7's error codes, by value. */
    private static final List<String> ERROR_CODES = List.of(
            "NO_ERROR",
            "PROTOCOL_ERROR",
            "INTERNAL_ERROR",
            "FLOW_CONTROL_ERROR",
            "SETTINGS_TIMEOUT",
            "STREAM_CLOSED",
            "FRAME_SIZE_ERROR",
            "REFUSED_STREAM",
            "CANCEL",
            "COMPRESSION_ERROR",
            "CONNECT_ERROR",
            "ENHANCE_YOUR_CALM",
            "INADEQUATE_SECURITY",
            "HTTP_1_1_REQUIRED");

    private final Connection connection;
    private byte[] lastRequest;
    private byte[] headerBlock;
    private byte[] body;
    private long dataFrames;

    private H2cLoopbackClient(Connection connection) {
        this.connection = connection;
    }

    /** One client on a connection of its own, advertising {@code settings}. */
    static H2cLoopbackClient connect(InetSocketAddress server, Settings settings) throws IOException {
        return new H2cLoopbackClient(new Connection(server, 1, settings));
    }

    /**
     * {@code clients} clients of {@code server}: on one connection if {@code shared}, else each on its own. Each is
     * closed on its own; a shared connection closes with its last client.
     */
    static List<EngineConnection> open(InetSocketAddress server, int clients, boolean shared, Settings settings)
            throws IOException {
        List<EngineConnection> opened = new ArrayList<>(clients);
        try {
            Connection one = shared ? new Connection(server, clients, settings) : null;
            for (int c = 0; c < clients; c++) {
                opened.add(new H2cLoopbackClient(shared ? one : new Connection(server, 1, settings)));
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            for (EngineConnection client : opened) {
                client.close();
            }
            throw e;
        }
    }

    @Override
    public long exchange(byte[] request) throws IOException {
        return exchange(request, null);
    }

    @Override
    public byte[] fetch(byte[] request) throws IOException {
        ByteArrayOutputStream keep = new ByteArrayOutputStream(1 << 20);
        exchange(request, keep);
        return keep.toByteArray();
    }

    @Override
    public long dataFrames() {
        return dataFrames;
    }

    private long exchange(byte[] request, ByteArrayOutputStream keep) throws IOException {
        if (request != lastRequest) { // the benchmark sends one request over and over: translated once
            translate(request);
            lastRequest = request;
        }
        Stream stream = new Stream(keep);
        int id = connection.send(stream, headerBlock, body);
        try {
            stream.done.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException | TimeoutException e) {
            connection.cancel(id);
            throw new IOException("no whole reply on stream " + id, e);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        }
        dataFrames += stream.frames;
        return stream.bytes;
    }

    /** The HTTP/1.1 {@code request}'s head as an HPACK header block, and its body. */
    private void translate(byte[] request) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = text.substring(0, end).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        ByteArrayOutputStream fields = new ByteArrayOutputStream(512);
        String authority = null;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            if (name.equals("host")) {
                authority = value;
            }
            if (!DROPPED.contains(name)) {
                literal(fields, name, value);
            }
        }
        ByteArrayOutputStream block = new ByteArrayOutputStream(512);
        literal(block, ":method", requestLine[0]); // pseudo-header fields first (RFC 9113 8.3)
        literal(block, ":scheme", "http");
        literal(block, ":path", requestLine[1]);
        if (authority != null) {
            literal(block, ":authority", authority);
        }
        block.writeBytes(fields.toByteArray());
        if (block.size() > DEFAULT_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("a header block of " + block.size() + " bytes: more than one frame");
        }
        headerBlock = block.toByteArray();
        body = Arrays.copyOfRange(request, end + 4, request.length);
    }

    /** A literal header field without indexing, new name (RFC 7541 6.2.2), neither string Huffman-coded. */
    private static void literal(ByteArrayOutputStream block, String name, String value) {
        block.write(0x00);
        string(block, name);
        string(block, value);
    }

    /** A string literal (RFC 7541 5.2), H bit 0: its length as a 7-bit-prefix integer (5.1), then its octets. */
    private static void string(ByteArrayOutputStream block, String text) {
        byte[] octets = text.getBytes(StandardCharsets.ISO_8859_1);
        int left = octets.length;
        if (left < 0x7f) {
            block.write(left);
        } else {
            block.write(0x7f);
            for (left -= 0x7f; left >= 0x80; left >>>= 7) {
                block.write((left & 0x7f) | 0x80);
            }
            block.write(left);
        }
        block.writeBytes(octets);
    }

    @Override
    public void close() {
        connection.release();
    }

    /** An RFC 9113 7 error code by name, with its value. */
    private static String errorCode(long code) {
        String name = code < ERROR_CODES.size() ? ERROR_CODES.get((int) code) : "unknown";
        return "error code 0x" + Long.toHexString(code) + " (" + name + ")";
    }

    /**
     * One exchange's stream as the reader sees it: whether its status is in, its DATA bytes and frames, the body kept
     * for {@link #fetch} (or null), its bytes not yet returned by a WINDOW_UPDATE; {@code done} completes with
     * END_STREAM (its fields then read by the exchange's thread) or fails.
     */
    private static final class Stream {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final ByteArrayOutputStream keep;
        boolean headed;
        long bytes;
        long frames;
        int unreturned;

        Stream(ByteArrayOutputStream keep) {
            this.keep = keep;
        }
    }

    /**
     * One HTTP/2 connection: its socket, the streams awaiting replies by id, the write lock, and its reader thread;
     * closed when the last of the clients on it is.
     */
    private static final class Connection implements Runnable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final AtomicInteger clients;
        private final Settings settings;
        private final Map<Integer, Stream> streams = new ConcurrentHashMap<>();
        private final CompletableFuture<Void> settled = new CompletableFuture<>();
        /**
         * Bytes read from the socket: those not yet handled are {@code [next, end)}; a frame's payload at {@code at}.
         */
        private final byte[] buffer;

        private int next;
        private int end;
        private int at;
        private final byte[] frameHead = new byte[9];
        private int nextStreamId = 1;
        private int unreturned;
        private volatile IOException failure;
        private volatile boolean closing;

        Connection(InetSocketAddress server, int clients, Settings settings) throws IOException {
            this.clients = new AtomicInteger(clients);
            this.settings = settings;
            buffer = new byte[Math.max(READ_BUFFER, FRAMES_BUFFERED * (9 + settings.maxFrameSize()) + READ_SIZE)];
            socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(server);
                in = socket.getInputStream();
                out = new BufferedOutputStream(socket.getOutputStream(), READ_SIZE);
                preface();
                Thread reader = new Thread(this, "h2c-client-" + socket.getLocalPort());
                reader.setDaemon(true);
                reader.start();
                settled.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException | ExecutionException | TimeoutException e) {
                socket.close();
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                throw new IOException("no HTTP/2 connection to " + server + ": " + cause.getMessage(), cause);
            }
        }

        /** The client preface, SETTINGS and the connection's WINDOW_UPDATE (RFC 9113 3.4, 6.5, 6.9.2). */
        private void preface() throws IOException {
            out.write(PREFACE);
            boolean frameSize = settings.maxFrameSize() != DEFAULT_MAX_FRAME_SIZE;
            byte[] payload = new byte[frameSize ? 18 : 12];
            setting(payload, 0, 0x2, 0); // SETTINGS_ENABLE_PUSH
            setting(payload, 6, 0x4, settings.streamWindow()); // SETTINGS_INITIAL_WINDOW_SIZE
            if (frameSize) {
                setting(payload, 12, 0x5, settings.maxFrameSize()); // SETTINGS_MAX_FRAME_SIZE
            }
            frame(SETTINGS, 0, 0, payload, 0, payload.length);
            if (settings.connectionWindow() > DEFAULT_WINDOW) {
                windowUpdate(0, settings.connectionWindow() - DEFAULT_WINDOW);
            }
            out.flush();
        }

        private static void setting(byte[] payload, int at, int id, int value) {
            payload[at] = (byte) (id >>> 8);
            payload[at + 1] = (byte) id;
            putInt(payload, at + 2, value);
        }

        /** Opens the next stream for {@code stream}: its HEADERS and body DATA frames, flushed; returns its id. */
        int send(Stream stream, byte[] headerBlock, byte[] body) throws IOException {
            synchronized (out) {
                int id = nextStreamId;
                nextStreamId += 2;
                streams.put(id, stream); // before the check: a failing reader either sees it or is seen
                IOException failed = failure;
                if (failed != null) {
                    streams.remove(id);
                    throw new IOException("the connection failed: " + failed.getMessage(), failed);
                }
                try {
                    frame(
                            HEADERS,
                            END_HEADERS | (body.length == 0 ? END_STREAM : 0),
                            id,
                            headerBlock,
                            0,
                            headerBlock.length);
                    for (int at = 0; at < body.length; at += DEFAULT_MAX_FRAME_SIZE) {
                        int n = Math.min(DEFAULT_MAX_FRAME_SIZE, body.length - at);
                        frame(DATA, at + n == body.length ? END_STREAM : 0, id, body, at, n);
                    }
                    out.flush();
                    return id;
                } catch (IOException e) {
                    streams.remove(id);
                    throw e;
                }
            }
        }

        /** Abandons stream {@code id}: RST_STREAM with CANCEL (RFC 9113 6.4), its further frames dropped. */
        void cancel(int id) {
            streams.remove(id);
            byte[] code = new byte[4];
            putInt(code, 0, CANCEL);
            try {
                synchronized (out) {
                    frame(RST_STREAM, 0, id, code, 0, code.length);
                    out.flush();
                }
            } catch (IOException e) {
                // the connection is failing: its reader fails what is left
            }
        }

        /** Writes a frame (RFC 9113 4.1); the caller holds the lock on {@code out} or is the constructor. */
        private void frame(int type, int flags, int streamId, byte[] payload, int offset, int length)
                throws IOException {
            frameHead[0] = (byte) (length >>> 16);
            frameHead[1] = (byte) (length >>> 8);
            frameHead[2] = (byte) length;
            frameHead[3] = (byte) type;
            frameHead[4] = (byte) flags;
            putInt(frameHead, 5, streamId);
            out.write(frameHead);
            out.write(payload, offset, length);
        }

        private void windowUpdate(int streamId, int increment) throws IOException {
            byte[] payload = new byte[4];
            putInt(payload, 0, increment);
            frame(WINDOW_UPDATE, 0, streamId, payload, 0, payload.length);
        }

        /** The reader: frame after frame until the socket closes or fails, then every waiting exchange failed. */
        @Override
        public void run() {
            try {
                while (true) {
                    buffered(9);
                    int h = next;
                    int length = ((buffer[h] & 0xff) << 16) | ((buffer[h + 1] & 0xff) << 8) | (buffer[h + 2] & 0xff);
                    if (length > settings.maxFrameSize()) {
                        throw new IOException("a frame of " + length + " bytes, more than SETTINGS_MAX_FRAME_SIZE");
                    }
                    buffered(9 + length);
                    h = next;
                    at = h + 9;
                    next = at + length;
                    dispatch(buffer[h + 3] & 0xff, buffer[h + 4] & 0xff, getInt(buffer, h + 5) & 0x7fffffff, length);
                }
            } catch (IOException e) {
                fail(closing ? new IOException("the connection closed") : e);
            } catch (RuntimeException e) {
                fail(new IOException("the reader failed: " + e, e));
            }
        }

        /** Handles the frame whose payload is at {@code at} in the buffer. */
        private void dispatch(int type, int flags, int streamId, int length) throws IOException {
            switch (type) {
                case DATA -> onData(flags, streamId, length);
                case HEADERS -> onHeaders(flags, streamId, length);
                case RST_STREAM ->
                    failStream(
                            streamId, new IOException("RST_STREAM on stream " + streamId + ": " + errorCode(code(0))));
                case SETTINGS -> onSettings(flags);
                case PING -> onPing(flags, length);
                case GOAWAY -> onGoAway(length);
                default -> {
                    // PRIORITY, WINDOW_UPDATE, CONTINUATION (header blocks are not decoded past their first byte)
                }
            }
        }

        private void onData(int flags, int streamId, int length) throws IOException {
            int padding = (flags & PADDED) != 0 ? (buffer[at] & 0xff) + 1 : 0;
            int start = at + (padding > 0 ? 1 : 0);
            Stream stream = streams.get(streamId);
            unreturned += length; // flow control counts the whole payload, padding too (RFC 9113 6.9.1)
            withinWindow(unreturned, settings.connectionWindow(), 0);
            boolean returnConnection = unreturned >= settings.connectionWindow() / 2;
            boolean returnStream = false;
            if (stream != null) {
                int n = length - padding;
                stream.bytes += n;
                stream.frames++;
                if (stream.keep != null) {
                    stream.keep.write(buffer, start, n);
                }
                stream.unreturned += length;
                withinWindow(stream.unreturned, settings.streamWindow(), streamId);
                returnStream = (flags & END_STREAM) == 0 && stream.unreturned >= settings.streamWindow() / 2;
            }
            if (returnConnection || returnStream) {
                returnCredit(returnConnection, returnStream ? stream : null, streamId);
            }
            if ((flags & END_STREAM) != 0 && stream != null) {
                streams.remove(streamId);
                stream.done.complete(null);
            }
        }

        /**
         * Fails the connection if {@code unreturned} bytes of DATA overrun the {@code window} of stream
         * {@code streamId} (0: the connection's; RFC 9113 6.9.1).
         */
        private static void withinWindow(int unreturned, int window, int streamId) throws IOException {
            if (unreturned > window) {
                throw new IOException("FLOW_CONTROL_ERROR: " + unreturned + " bytes of DATA past the last"
                        + " WINDOW_UPDATE on " + (streamId == 0 ? "the connection" : "stream " + streamId)
                        + ", whose window is " + window);
            }
        }

        /** WINDOW_UPDATEs for the connection and/or {@code stream}, flushed (RFC 9113 6.9). */
        private void returnCredit(boolean connection, Stream stream, int streamId) throws IOException {
            synchronized (out) {
                if (connection) {
                    windowUpdate(0, unreturned);
                    unreturned = 0;
                }
                if (stream != null) {
                    windowUpdate(streamId, stream.unreturned);
                    stream.unreturned = 0;
                }
                out.flush();
            }
        }

        private void onHeaders(int flags, int streamId, int length) throws IOException {
            Stream stream = streams.get(streamId);
            if (stream == null) {
                return;
            }
            if (!stream.headed) {
                int start = ((flags & PADDED) != 0 ? 1 : 0) + ((flags & PRIORITY) != 0 ? 5 : 0);
                if (start >= length || (buffer[at + start] & 0xff) != STATUS_200) {
                    IOException e = new IOException("unexpected response: a header block beginning "
                            + hex(buffer, at + start, at + Math.min(length, start + 8)) + " (not :status 200 as 0x88)");
                    failStream(streamId, e);
                    cancel(streamId);
                    return;
                }
                stream.headed = true;
            }
            if ((flags & END_STREAM) != 0) { // no body, or trailers
                streams.remove(streamId);
                stream.done.complete(null);
            }
        }

        private void onSettings(int flags) throws IOException {
            if ((flags & ACK) != 0) {
                return;
            }
            synchronized (out) {
                frame(SETTINGS, ACK, 0, buffer, at, 0);
                out.flush();
            }
            settled.complete(null);
        }

        private void onPing(int flags, int length) throws IOException {
            if ((flags & ACK) != 0) {
                return;
            }
            synchronized (out) {
                frame(PING, ACK, 0, buffer, at, length);
                out.flush();
            }
        }

        /** GOAWAY (RFC 9113 6.8): the streams above its last stream id fail, every stream with an error. */
        private void onGoAway(int length) {
            int last = getInt(buffer, at) & 0x7fffffff;
            long code = code(4);
            String debug = new String(buffer, at + 8, Math.max(0, length - 8), StandardCharsets.UTF_8);
            IOException e = new IOException(
                    "GOAWAY (last stream " + last + "): " + errorCode(code) + (debug.isEmpty() ? "" : " " + debug));
            failure = e;
            for (Integer id : streams.keySet()) {
                if (id > last || code != 0) {
                    failStream(id, e);
                }
            }
        }

        private void failStream(int streamId, IOException e) {
            Stream stream = streams.remove(streamId);
            if (stream != null) {
                stream.done.completeExceptionally(e);
            }
        }

        private void fail(IOException e) {
            settled.completeExceptionally(e);
            if (failure == null) {
                failure = e;
            }
            for (Integer id : streams.keySet()) {
                failStream(id, e);
            }
        }

        /** An error code, unsigned, {@code offset} bytes into the frame's payload. */
        private long code(int offset) {
            return getInt(buffer, at + offset) & 0xffffffffL;
        }

        /**
         * Reads until {@code length} bytes from {@code next} on are in the buffer, moving them to the front if need be.
         */
        private void buffered(int length) throws IOException {
            if (end - next >= length) {
                return;
            }
            if (buffer.length - next < length + READ_SIZE) {
                System.arraycopy(buffer, next, buffer, 0, end - next);
                end -= next;
                next = 0;
            }
            while (end - next < length) {
                int n = in.read(buffer, end, READ_SIZE);
                if (n < 0) {
                    throw new EOFException("the server closed the connection");
                }
                end += n;
            }
        }

        void release() {
            if (clients.decrementAndGet() == 0) {
                closing = true;
                try {
                    socket.close();
                } catch (IOException e) {
                    // closed either way
                }
            }
        }
    }

    private static void putInt(byte[] bytes, int at, int value) {
        bytes[at] = (byte) (value >>> 24);
        bytes[at + 1] = (byte) (value >>> 16);
        bytes[at + 2] = (byte) (value >>> 8);
        bytes[at + 3] = (byte) value;
    }

    private static int getInt(byte[] bytes, int at) {
        return ((bytes[at] & 0xff) << 24)
                | ((bytes[at + 1] & 0xff) << 16)
                | ((bytes[at + 2] & 0xff) << 8)
                | (bytes[at + 3] & 0xff);
    }

    private static String hex(byte[] bytes, int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            text.append(String.format(Locale.ROOT, i == from ? "0x%02x" : " 0x%02x", bytes[i]));
        }
        return text.toString();
    }
}
