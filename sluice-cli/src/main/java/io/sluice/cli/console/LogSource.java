package io.sluice.cli.console;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.List;
import java.util.Map;

/**
 * Who a log line is from, in a word a user knows: a named logger's own name ({@code engine}, {@code progress}), the
 * part of Sluice a class belongs to ({@code storage}, {@code mirror}), or the library ({@code kafka}, {@code s3},
 * {@code hdfs}), never a class name; {@code --verbose} lines name the class instead (the {@code %logger{0}} word).
 *
 * <p>Threading: stateless; called by any thread that logs.
 */
public final class LogSource extends ClassicConverter {

    private static final List<Map.Entry<String, String>> LIBRARIES = List.of(
            Map.entry("org.apache.kafka.", "kafka"),
            Map.entry("kafka.", "kafka"),
            Map.entry("software.amazon.", "s3"),
            Map.entry("org.apache.hadoop.", "hdfs"),
            Map.entry("org.apache.parquet.", "parquet"),
            Map.entry("org.apache.avro.", "avro"),
            Map.entry("io.micrometer.", "metrics"));

    @Override
    public String convert(ILoggingEvent event) {
        return of(event.getLoggerName());
    }

    static String of(String logger) {
        String last = logger.substring(logger.lastIndexOf('.') + 1);
        if (!last.isEmpty() && Character.isLowerCase(last.charAt(0))) {
            return last;
        }
        if (logger.startsWith("io.sluice.")) {
            int module = "io.sluice.".length();
            int end = logger.indexOf('.', module);
            return end < 0 ? last : logger.substring(module, end);
        }
        for (Map.Entry<String, String> library : LIBRARIES) {
            if (logger.startsWith(library.getKey())) {
                return library.getValue();
            }
        }
        return last;
    }
}
