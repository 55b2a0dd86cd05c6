package io.hexstream.codec.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.json.JsonHexReader;
import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.testing.JsonEvents;
import io.hexstream.codec.testing.JsonEvents.Policy;
import io.hexstream.codec.testing.JsonEvents.Recorder;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JsonResponseReader} in an {@link EmbeddedChannel} behind Netty's {@link HttpClientCodec}. */
class JsonResponseReaderTest {
    private static final String FIRST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[{\"blob\":\"0x00ff10\","
            + "\"proofs\":[\"0xAB\",\"0x\"]},null]}";
    private static final String SECOND = "{ \"result\" : [ { \"proofs\" : [ \"0x0102\" ] , \"blob\" : \"0x\\u0030f\" ,"
            + " \"x\" : [ 1.5 , \"\\u00e9\" ] } ] , \"id\" : \"b\" }";

    /** Completions and failures of every exchange of a test, in the order they happened. */
    private final List<String> outcomes = new ArrayList<>();

    @Test
    void pipelinedResponsesAreReadInOrderWhateverTheSplit() {
        byte[] responses = (contentLength(FIRST) + chunked(SECOND)).getBytes(UTF_8);
        for (int chunk : new int[] {1, 2, 7, 64, 1000, responses.length}) {
            outcomes.clear();
            EmbeddedChannel channel = new EmbeddedChannel(new HttpClientCodec(), new JsonResponseReader(false));
            Exchange first = new Exchange("first");
            Exchange second = new Exchange("second");
            channel.writeOutbound(new JsonExchange(request("/1"), first), new JsonExchange(request("/2"), second));
            for (int offset = 0; offset < responses.length; offset += chunk) {
                int length = Math.min(chunk, responses.length - offset);
                channel.writeInbound(Unpooled.wrappedBuffer(responses, offset, length));
            }
            assertEquals(List.of("first complete", "second complete"), outcomes, "chunks of " + chunk);
            assertEquals(JsonEvents.jackson(FIRST, Policy.GET_BLOBS, 64), first.recorder.events);
            assertEquals(JsonEvents.jackson(SECOND, Policy.GET_BLOBS, 64), second.recorder.events);
            assertTrue(channel.isOpen());
            assertTrue(channel.inboundMessages().isEmpty(), "nothing passed through");
            assertEquals(2, channel.outboundMessages().size(), "the requests, encoded");
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void aMalformedBodyFailsItsExchangeOnly() {
        String bad = "{\"result\":[{\"blob\":\"0x0\"}],\"more\":[1,2,3]}";
        EmbeddedChannel channel = new EmbeddedChannel(new HttpClientCodec(), new JsonResponseReader(false));
        Exchange first = new Exchange("first");
        Exchange second = new Exchange("second");
        channel.writeOutbound(new JsonExchange(request("/1"), first), new JsonExchange(request("/2"), second));
        byte[] responses = (chunked(bad) + contentLength(FIRST)).getBytes(UTF_8);
        for (int offset = 0; offset < responses.length; offset += 5) {
            channel.writeInbound(Unpooled.wrappedBuffer(responses, offset, Math.min(5, responses.length - offset)));
        }
        assertEquals(
                List.of("first failed: result[0].blob: odd number of hex digits at byte 23", "second complete"),
                outcomes);
        assertEquals(JsonEvents.jackson(FIRST, Policy.GET_BLOBS, 64), second.recorder.events);
        assertTrue(channel.isOpen());
        assertTrue(channel.inboundMessages().isEmpty());
        channel.finishAndReleaseAll();
    }

    /** A listener that refuses a token: its consumer, given the reader, names the path and the byte of the token. */
    @Test
    void aListenersRefusalIsPlacedByTheReaderTheConsumerIsGiven() {
        String body = "{\"result\":[{\"blob\":true}]}";
        List<String> placed = new ArrayList<>();
        JsonResponseConsumer consumer = new JsonResponseConsumer() {
            private JsonHexReader reader;

            @Override
            public JsonTokenListener head(HttpResponse head) {
                return new JsonTokenListener() {
                    @Override
                    public void bool(boolean value) {
                        throw new IllegalStateException("no Booleans");
                    }
                };
            }

            @Override
            public void reading(JsonHexReader reader) {
                this.reader = reader;
            }

            @Override
            public void complete() {
                placed.add("complete");
            }

            @Override
            public void failed(Throwable cause) {
                placed.add(reader.path() + ": " + cause.getMessage() + " at byte " + reader.tokenOffset());
            }
        };
        EmbeddedChannel channel = new EmbeddedChannel(new HttpClientCodec(), new JsonResponseReader(false));
        channel.writeOutbound(new JsonExchange(request("/1"), consumer));
        channel.writeInbound(Unpooled.copiedBuffer(chunked(body), UTF_8));
        assertEquals(List.of("result[0].blob: no Booleans at byte " + (body.indexOf("true") + 3)), placed);
        assertTrue(channel.isOpen());
        channel.finishAndReleaseAll();
    }

    @Test
    void aDisconnectFailsTheExchangeBeingReadAndThoseWaiting() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpClientCodec(), new JsonResponseReader(false));
        channel.writeOutbound(
                new JsonExchange(request("/1"), new Exchange("first")),
                new JsonExchange(request("/2"), new Exchange("second")));
        String response = contentLength(FIRST);
        channel.writeInbound(Unpooled.copiedBuffer(response.substring(0, response.length() - 10), UTF_8));
        channel.close();
        assertEquals(2, outcomes.size(), outcomes::toString);
        assertTrue(outcomes.get(0).startsWith("first failed: "), outcomes::toString);
        assertTrue(outcomes.get(1).startsWith("second failed: "), outcomes::toString);
        assertTrue(channel.inboundMessages().isEmpty());
        channel.finishAndReleaseAll();
    }

    @Test
    void aResponseThatIsNotHttpFailsEveryExchangeAndCloses() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpClientCodec(), new JsonResponseReader(false));
        channel.writeOutbound(
                new JsonExchange(request("/1"), new Exchange("first")),
                new JsonExchange(request("/2"), new Exchange("second")));
        channel.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n{}", UTF_8));
        assertEquals(2, outcomes.size(), outcomes::toString);
        assertTrue(outcomes.get(1).startsWith("second failed: "), outcomes::toString);
        assertFalse(channel.isOpen());
        channel.finishAndReleaseAll();
    }

    @Test
    void aPacedReaderReadsOnlyWhileTheConsumerWants() {
        int[] reads = {0};
        ChannelOutboundHandlerAdapter counter = new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                reads[0]++;
                ctx.read();
            }
        };
        JsonResponseReader reader = new JsonResponseReader(true);
        EmbeddedChannel channel = new EmbeddedChannel(counter, new HttpClientCodec(), reader);
        assertFalse(channel.config().isAutoRead());
        channel.writeOutbound(new JsonExchange(request("/1"), new Exchange("first")));
        byte[] response = contentLength(FIRST).getBytes(UTF_8);
        // Each piece decodes to a message: the HTTP decoder asks for a read of its own after one that does not.
        int first = contentLength("").length() + 10;
        try {
            int before = reads[0];
            channel.writeInbound(Unpooled.wrappedBuffer(response, 0, first));
            assertEquals(before + 1, reads[0], "the next read is asked for");
            reader.pause();
            channel.writeInbound(Unpooled.wrappedBuffer(response, first, 20));
            assertEquals(before + 1, reads[0], "no read while paused");
            reader.resume();
            assertEquals(before + 2, reads[0], "resume reads on");
            channel.writeInbound(Unpooled.wrappedBuffer(response, first + 20, response.length - first - 20));
            assertEquals(List.of("first complete"), outcomes);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static FullHttpRequest request(String uri) {
        FullHttpRequest request = new DefaultFullHttpRequest(
                HttpVersion.HTTP_1_1, HttpMethod.POST, uri, Unpooled.copiedBuffer("{}", UTF_8));
        request.headers().set("Host", "localhost").set("Content-Length", 2).set("Content-Type", "application/json");
        return request;
    }

    private static String contentLength(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.getBytes(UTF_8).length
                + "\r\n\r\n" + body;
    }

    /** {@code body} in chunks of 10 bytes (its characters are ASCII). */
    private static String chunked(String body) {
        StringBuilder out = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int offset = 0; offset < body.length(); offset += 10) {
            String piece = body.substring(offset, Math.min(body.length(), offset + 10));
            out.append(Integer.toHexString(piece.length()))
                    .append("\r\n")
                    .append(piece)
                    .append("\r\n");
        }
        return out.append("0\r\n\r\n").toString();
    }

    /** Records its response's events (hex values of the getBlobs shape decoded) and its outcome. */
    private final class Exchange implements JsonResponseConsumer {
        private final String name;
        final Recorder recorder = new Recorder(Policy.GET_BLOBS, true, false, 64);

        Exchange(String name) {
            this.name = name;
        }

        @Override
        public JsonTokenListener head(HttpResponse head) {
            assertNotNull(head.status());
            return recorder;
        }

        @Override
        public void complete() {
            outcomes.add(name + " complete");
        }

        @Override
        public void failed(Throwable cause) {
            recorder.releaseAll();
            outcomes.add(name + " failed: " + cause.getMessage());
        }
    }
}
