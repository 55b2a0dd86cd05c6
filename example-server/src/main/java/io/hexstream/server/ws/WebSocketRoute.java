package io.hexstream.server.ws;

import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.Http1Responder;
import io.hexstream.server.http.Rejection;
import io.hexstream.server.http.Route;
import io.hexstream.server.http.SwitchingProtocols;
import io.hexstream.server.message.MessageExchange;
import io.hexstream.server.message.ReplyFraming;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.Utf8FrameValidator;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import io.netty.handler.stream.ChunkedInput;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The WebSocket upgrade of the Engine API ({@code GET /} with {@code Upgrade: websocket}, registered with
 * {@link io.hexstream.server.http.RouteTable.Builder#upgrade}): needs a JWT on the port that checks them (a missing or
 * bad one gets {@code 401} with the reason, and no upgrade; {@code Authorization} twice {@code 400}); checks the
 * opening handshake on its head (RFC 6455 4.2.1: HTTP/1.1, whose {@code Host} the port requires, {@code Connection:
 * Upgrade}, {@code Sec-WebSocket-Version: 13}, a {@code Sec-WebSocket-Key} of 16 bytes in base64; {@code 400} with the
 * reason otherwise) and answers {@code 101} with its {@code Sec-WebSocket-Accept}, no extension and no subprotocol. The
 * connection then carries JSON-RPC messages, each handed to {@code messages} (the JSON-RPC route) as a request body
 * would be, with the port's bounds: a message of at most the route's body limit (frames joined; {@code 1009} and the
 * connection closed above), {@code maxPipelined} replies pending, {@code idleTimeout}; a text message's UTF-8 checked
 * as its frames come ({@code 1007}). Thread-safe: one instance serves every connection of its port.
 */
public final class WebSocketRoute implements Route {
    /** The GUID RFC 6455 (4.2.2) appends to the key before hashing it into {@code Sec-WebSocket-Accept}. */
    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    /** How many bytes a {@code Sec-WebSocket-Key} decodes to. */
    private static final int KEY_BYTES = 16;

    private static final ReplyFraming FRAMING = new ReplyFraming() {
        @Override
        public ChunkedInput<?> reply(ChunkedInput<ByteBuf> body) {
            return new ReplyFrames(body);
        }

        @Override
        public String transport() {
            return "ws";
        }

        @Override
        public Object goodbye() {
            return new CloseWebSocketFrame(WebSocketCloseStatus.ENDPOINT_UNAVAILABLE);
        }
    };

    private final Route messages;
    /** The largest message taken: the JSON-RPC route's body limit, at most {@code --max-request-bytes}. */
    private final int maxMessageBytes;

    private final int maxPipelined;
    private final Duration idleTimeout;
    private final Executor largeRequests;
    private final ServerMetrics metrics;

    /**
     * @param messages what answers each message: the JSON-RPC route
     * @param maxRequestBytes the largest message taken ({@code --max-request-bytes}), its frames joined; less if
     *     {@code messages} takes less ({@link Route#maxBodyBytes()})
     * @param maxPipelined messages taken before their replies are written ({@code --max-pipelined})
     * @param idleTimeout how long a connection may wait for a whole message while no reply is being written
     * @param largeRequests where messages over 64 KiB are handled, off the event loop
     */
    public WebSocketRoute(
            Route messages,
            int maxRequestBytes,
            int maxPipelined,
            Duration idleTimeout,
            Executor largeRequests,
            ServerMetrics metrics) {
        this.messages = messages;
        this.maxMessageBytes = Math.min(maxRequestBytes, messages.maxBodyBytes());
        this.maxPipelined = maxPipelined;
        this.idleTimeout = idleTimeout;
        this.largeRequests = largeRequests;
        this.metrics = metrics;
    }

    @Override
    public boolean needsJwt() {
        return true;
    }

    /** An upgrade request has no body. */
    @Override
    public int maxBodyBytes() {
        return 0;
    }

    @Override
    public Rejection rejectHead(HttpVersion version, HttpHeaders headers) {
        if (version.compareTo(HttpVersion.HTTP_1_1) < 0) {
            return badRequest("a WebSocket upgrade needs HTTP/1.1 (RFC 6455, 4.2.1)");
        }
        if (!headers.containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE, true)) {
            return badRequest("a WebSocket upgrade needs Connection: Upgrade");
        }
        if (headers.getAll(HttpHeaderNames.SEC_WEBSOCKET_KEY).size() > 1
                || headers.getAll(HttpHeaderNames.SEC_WEBSOCKET_VERSION).size() > 1) {
            return badRequest("Sec-WebSocket-Key and Sec-WebSocket-Version once each (RFC 6455, 11.3.1, 11.3.5)");
        }
        if (!"13".equals(headers.get(HttpHeaderNames.SEC_WEBSOCKET_VERSION))) {
            return badRequest("WebSocket version 13 only (Sec-WebSocket-Version)");
        }
        String key = headers.get(HttpHeaderNames.SEC_WEBSOCKET_KEY);
        if (key == null || decodedLength(key.trim()) != KEY_BYTES) {
            return badRequest("Sec-WebSocket-Key must be 16 bytes in base64");
        }
        return null;
    }

    private static Rejection badRequest(String reason) {
        return new Rejection(HttpResponseStatus.BAD_REQUEST, "text/plain; charset=utf-8", reason + "\n");
    }

    private static int decodedLength(String key) {
        try {
            return Base64.getDecoder().decode(key).length;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    /**
     * Answers {@code 101}: from then on the connection is a WebSocket. An upgrade route is reached only through
     * HTTP/1.1's {@code Upgrade}, whose {@link Http1Responder} {@code sink} is.
     */
    @Override
    public void handle(ByteBuf body, ReplySink sink) {
        String key =
                sink.requestHeaders().get(HttpHeaderNames.SEC_WEBSOCKET_KEY).trim();
        ((Http1Responder) sink).respond(new Upgrade(accept(key)), 0, null);
    }

    /** {@code Sec-WebSocket-Accept}: the base64 of the SHA-1 of the key and the GUID (RFC 6455 4.2.2). */
    static String accept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return Base64.getEncoder()
                    .encodeToString(sha1.digest((key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }

    /**
     * Netty's frame decoder, but a close frame's status code and reason are left to {@link WebSocketFrames}: Netty's
     * check takes a status of 5000 or more as valid, and answers one it refuses with no close frame at all.
     */
    private static final class FrameDecoder extends WebSocket13FrameDecoder {
        FrameDecoder(WebSocketDecoderConfig config) {
            super(config);
        }

        @Override
        protected void checkCloseFrameBody(ChannelHandlerContext ctx, ByteBuf buffer) {}
    }

    /** The {@code 101} and the WebSocket handlers of one connection. */
    private final class Upgrade implements SwitchingProtocols {
        private final String accept;

        Upgrade(String accept) {
            this.accept = accept;
        }

        @Override
        public FullHttpResponse response() {
            FullHttpResponse response = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.SWITCHING_PROTOCOLS, Unpooled.EMPTY_BUFFER);
            response.headers()
                    .set(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.UPGRADE)
                    .set(HttpHeaderNames.SEC_WEBSOCKET_ACCEPT, accept);
            return response;
        }

        @Override
        public List<ChannelHandler> codec() {
            WebSocketDecoderConfig config = WebSocketDecoderConfig.newBuilder()
                    .maxFramePayloadLength(maxMessageBytes)
                    .expectMaskedFrames(true)
                    .allowMaskMismatch(false)
                    .allowExtensions(false)
                    .closeOnProtocolViolation(false) // WebSocketFrames writes the close, when the socket takes it
                    .build();
            return List.of(new WebSocket13FrameEncoder(false), new FrameDecoder(config), new Utf8FrameValidator(false));
        }

        @Override
        public List<ChannelHandler> handlers() {
            return List.of(
                    new WebSocketFrameAggregator(maxMessageBytes),
                    new WebSocketFrames(metrics),
                    new MessageExchange(messages, maxPipelined, idleTimeout, largeRequests, FRAMING, metrics));
        }
    }
}
