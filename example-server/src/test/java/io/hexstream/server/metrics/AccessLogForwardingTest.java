package io.hexstream.server.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The access log tells the metrics it wraps every call, whatever metric the interface holds. */
class AccessLogForwardingTest {

    @Test
    void noMetricHasADefault() {
        for (Method method : ServerMetrics.class.getMethods()) {
            assertFalse(method.isDefault(), method.getName() + " has a default: the access log could drop it");
        }
    }

    @Test
    void everyCallReachesTheWrappedMetrics() throws Exception {
        List<Object[]> received = new ArrayList<>();
        List<String> names = new ArrayList<>();
        ServerMetrics wrapped = (ServerMetrics) Proxy.newProxyInstance(
                ServerMetrics.class.getClassLoader(), new Class<?>[] {ServerMetrics.class}, (proxy, called, args) -> {
                    names.add(called.getName());
                    received.add(args == null ? new Object[0] : args); // a proxy is given null for no arguments
                    return null;
                });
        AccessLog log = new AccessLog(wrapped);
        int calls = 0;
        for (Method method : ServerMetrics.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            Object[] args = arguments(method);
            method.invoke(log, args);
            assertEquals(method.getName(), names.get(calls), "forwarded");
            assertArrayEquals(args, received.get(calls), method.getName() + "'s arguments");
            calls++;
        }
        assertEquals(calls, names.size(), "one call forwarded for each");
    }

    /** A distinct value of each parameter's type. */
    private static Object[] arguments(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> type = types[i];
            args[i] = type == int.class
                    ? 7 + i
                    : type == long.class
                            ? 11L + i
                            : type == boolean.class
                                    ? true
                                    : type == String.class
                                            ? "m" + i
                                            : type == ResponseSummary.class
                                                    ? new ResponseSummary("m", 3, 2, null)
                                                    : type.isEnum() ? type.getEnumConstants()[0] : null;
        }
        return args;
    }
}
