package io.hexstream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Each surefire run tests the kernel it claims to: SIMD in the default run, the pair table alone in the other. */
class HexKernelTest {

    @Test
    void theExpectedKernelIsInUse() {
        assertEquals(
                Boolean.getBoolean("hexstream.test.expectVector") ? HexKernel.VECTOR : HexKernel.PAIR_TABLE,
                Hex.kernel());
    }

    /** The poms' argLines name the switch by its value; the table-kernel run sets it to {@code false}. */
    @Test
    void theSwitchIsTheSystemPropertyThePomsSet() {
        assertEquals("io.hexstream.codec.vector", Hex.VECTOR_KERNEL_PROP_NAME);
        if ("false".equals(System.getProperty(Hex.VECTOR_KERNEL_PROP_NAME))) {
            assertEquals(HexKernel.PAIR_TABLE, Hex.kernel());
        }
    }
}
