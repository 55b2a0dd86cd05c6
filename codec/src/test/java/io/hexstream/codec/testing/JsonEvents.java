package io.hexstream.codec.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;

/**
 * A document as a list of events, {@code "{"}, {@code "name:blob"}, {@code "hex:00ab"},
 * {@code "string:2.0"}, {@code "number:1"}, {@code "true"}, {@code "null"}, {@code "]"}: once from a
 * {@link JsonHexReader} through {@link Recorder}, once from Jackson's parser and {@link HexFormat} (the
 * independent reading). Which string values are hex is a {@link Policy} on where they are, the same
 * for both.
 */
public final class JsonEvents {
    private static final HexFormat HEX = HexFormat.of();
    private static final JsonFactory JACKSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(100_000)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxStringLength(Integer.MAX_VALUE)
                    .build())
            .build();

    /** Where hex values are: given the member name (null in an array) and the enclosing array's member name. */
    public interface Policy {
        boolean isHex(String name, String arrayName);

        /** The getBlobs shape: {@code blob} members and {@code proofs} elements. */
        Policy GET_BLOBS = (name, arrayName) -> name != null ? name.equals("blob") : "proofs".equals(arrayName);
        /** Every string value. */
        Policy ALL = (name, arrayName) -> true;
    }

    private JsonEvents() {}

    /**
     * Records the reader's events; hex values go into unpooled buffers ({@code direct} or heap), or into one
     * {@code byte[]} of {@code maxBytes} when {@code arrays}, read back when each ends.
     */
    public static final class Recorder implements JsonTokenListener {
        public final List<String> events = new ArrayList<>();
        private final Policy policy;
        private final boolean direct;
        private final boolean arrays;
        private final int maxBytes;
        private final Deque<String> containers = new ArrayDeque<>();
        private String lastName;
        private ByteBuf buffer;
        private byte[] array;

        public Recorder(Policy policy, boolean direct, boolean arrays, int maxBytes) {
            this.policy = policy;
            this.direct = direct;
            this.arrays = arrays;
            this.maxBytes = maxBytes;
        }

        /** Releases a destination left by a failed read. */
        public void releaseAll() {
            if (buffer != null) {
                buffer.release();
                buffer = null;
            }
        }

        @Override
        public void beginObject() {
            open("{");
        }

        @Override
        public void beginArray() {
            open("[");
        }

        private void open(String event) {
            events.add(event);
            containers.push(lastName == null ? "" : lastName);
            lastName = null;
        }

        @Override
        public void endObject() {
            containers.pop();
            events.add("}");
        }

        @Override
        public void endArray() {
            containers.pop();
            events.add("]");
        }

        @Override
        public void name(CharSequence name) {
            lastName = name.toString();
            events.add("name:" + lastName);
        }

        @Override
        public void stringStart(StringValue value) {
            String name = value.name() == null ? null : value.name().toString();
            String arrayName = value.index() >= 0 ? emptyToNull(containers.peek()) : null;
            lastName = null;
            if (!policy.isHex(name, arrayName)) {
                return;
            }
            if (arrays) {
                array = new byte[maxBytes + 2];
                value.hex(array, 1, 0, maxBytes);
            } else {
                buffer = direct ? Unpooled.directBuffer(64) : Unpooled.buffer(64);
                value.hex(buffer, 0, maxBytes);
            }
        }

        @Override
        public void hexEnd(int length) {
            if (arrays) {
                events.add("hex:" + HEX.formatHex(array, 1, 1 + length));
                array = null;
                return;
            }
            byte[] bytes = new byte[length];
            buffer.getBytes(0, bytes);
            buffer.release();
            buffer = null;
            events.add("hex:" + HEX.formatHex(bytes));
        }

        @Override
        public void string(CharSequence value) {
            events.add("string:" + value);
        }

        @Override
        public void number(CharSequence number) {
            lastName = null;
            events.add("number:" + number);
        }

        @Override
        public void bool(boolean value) {
            lastName = null;
            events.add(Boolean.toString(value));
        }

        @Override
        public void nullValue() {
            lastName = null;
            events.add("null");
        }
    }

    private static String emptyToNull(String name) {
        return name == null || name.isEmpty() ? null : name;
    }

    /**
     * Jackson's reading of {@code json}, with hex values where {@code policy} says and at most {@code maxBytes} long;
     * null if Jackson refuses it, there is more than one top-level value, or a hex value is not strict {@code DATA}
     * within bounds. Jackson reads the UTF-8 bytes, as from a socket: its parser of text takes any character whose low
     * byte is a hex digit as one in a backslash-u escape (U+0344 as {@code D}). Bytes from which Jackson would guess
     * another encoding (a NUL in the first four, or a byte order mark) are read as text instead: they are not JSON
     * either way.
     */
    public static List<String> jackson(String json, Policy policy, int maxBytes) {
        List<String> events = new ArrayList<>();
        byte[] utf8 = json.getBytes(StandardCharsets.UTF_8);
        boolean guessable = json.startsWith("\uFEFF")
                || json.substring(0, Math.min(4, json.length())).indexOf(0) >= 0;
        try (JsonParser parser = guessable ? JACKSON.createParser(json) : JACKSON.createParser(utf8)) {
            int depth = 0;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                switch (token) {
                    case START_OBJECT -> events.add("{");
                    case END_OBJECT -> events.add("}");
                    case START_ARRAY -> events.add("[");
                    case END_ARRAY -> events.add("]");
                    case FIELD_NAME -> events.add("name:" + parser.currentName());
                    case VALUE_STRING -> {
                        String text = parser.getText();
                        if (!isHex(parser.getParsingContext(), policy)) {
                            events.add("string:" + text);
                        } else if (isData(text) && text.length() <= 2 + 2L * maxBytes) {
                            events.add("hex:" + HEX.formatHex(HEX.parseHex(text, 2, text.length())));
                        } else {
                            return null;
                        }
                    }
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> events.add("number:" + parser.getText());
                    case VALUE_TRUE -> events.add("true");
                    case VALUE_FALSE -> events.add("false");
                    case VALUE_NULL -> events.add("null");
                    default -> throw new AssertionError(token);
                }
                depth += token.isStructStart() ? 1 : token.isStructEnd() ? -1 : 0;
                if (depth == 0) {
                    // one top-level value, and nothing after it
                    return parser.nextToken() == null ? events : null;
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean isHex(JsonStreamContext context, Policy policy) {
        if (context.inObject()) {
            return policy.isHex(context.getCurrentName(), null);
        }
        if (context.inArray()) {
            JsonStreamContext parent = context.getParent();
            return policy.isHex(null, parent.inObject() ? parent.getCurrentName() : null);
        }
        return policy.isHex(null, null);
    }

    /** {@code 0x}, then an even number of {@code [0-9a-fA-F]}: the strict {@code DATA} of the Engine API. */
    public static boolean isData(String text) {
        if (text.length() < 2 || !text.startsWith("0x") || text.length() % 2 != 0) {
            return false;
        }
        return text.chars().skip(2).allMatch(c -> c < 128 && Character.digit(c, 16) >= 0);
    }
}
