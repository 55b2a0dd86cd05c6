package io.hexstream.codec.testing;

/**
 * Which run this is: the default {@code mvn verify}, or {@code -Pfull}, which sets {@code hexstream.test.full} (the
 * parent POM). A test that proves the same thing at two sizes takes the small one by default and the full one in
 * {@code -Pfull}; a test that only makes sense long is tagged {@code full} instead.
 */
public final class TestTier {
    /** Whether this is the full run. */
    public static final boolean FULL = Boolean.getBoolean("hexstream.test.full");

    private TestTier() {}
}
