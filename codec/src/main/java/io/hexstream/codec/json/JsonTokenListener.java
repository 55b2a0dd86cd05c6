package io.hexstream.codec.json;

/**
 * What a {@link JsonHexReader} reports, in document order, on the thread that feeds it. Every method does nothing by
 * default. A {@code CharSequence} passed in is the reader's own scratch, valid only during the call: copy it
 * ({@code toString()}) to keep it.
 *
 * <p>A string value is announced by {@link #stringStart(StringValue)} before its first character is read, so the
 * listener can pick where it goes: decoded as hex into a buffer it supplies (then {@link #hexEnd(int)} follows its last
 * byte), skipped, or read as text ({@link #string(CharSequence)}). An exception thrown here ends the reading:
 * {@link JsonHexReader#feed} rethrows it and the reader refuses further input.
 */
public interface JsonTokenListener {

    /** An object begins: <code>{</code>. */
    default void beginObject() {}

    /** The innermost object ends: <code>}</code>. */
    default void endObject() {}

    /** An array begins: {@code [}. */
    default void beginArray() {}

    /** The innermost array ends: {@code ]}. */
    default void endArray() {}

    /** A member's name, unescaped; its value follows. */
    default void name(CharSequence name) {}

    /**
     * A string value begins (its opening quote was read). Pick its destination through {@code value} during this call;
     * without a choice it is read as text. {@code value} also says where it is ({@link StringValue#name()},
     * {@link StringValue#index()}, {@link StringValue#depth()}).
     */
    default void stringStart(StringValue value) {}

    /** A string value read as text, unescaped. */
    default void string(CharSequence value) {}

    /**
     * A hex value's last byte has been written to the destination chosen in {@link #stringStart(StringValue)}:
     * {@code length} bytes in all. The destination is the listener's again (the reader keeps no reference to it).
     */
    default void hexEnd(int length) {}

    /** A number, as written ({@code -1.5e3}); RFC 8259 grammar checked, not converted. */
    default void number(CharSequence number) {}

    /** {@code true} or {@code false}. */
    default void bool(boolean value) {}

    /** {@code null}. */
    default void nullValue() {}
}
