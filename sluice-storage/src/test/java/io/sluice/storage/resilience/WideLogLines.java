package io.sluice.storage.resilience;

/**
 * JSON log lines of about 1.15 KB with an Avro schema of 40 columns (nested records, a nullable record, a list), the
 * shape of issue 17's Parquet archive. For tests.
 */
final class WideLogLines {

    static final String SCHEMA = """
            {"type": "record", "name": "LogLine", "fields": [
              {"name": "ts", "type": "long"}, {"name": "level", "type": "string"},
              {"name": "category", "type": "string"}, {"name": "message", "type": "string"},
              {"name": "logger", "type": "string"}, {"name": "thread", "type": "string"},
              {"name": "trace_id", "type": "string"}, {"name": "span_id", "type": "string"},
              {"name": "host", "type": "string"}, {"name": "pod", "type": "string"},
              {"name": "namespace", "type": "string"}, {"name": "env", "type": "string"},
              {"name": "version", "type": "string"}, {"name": "seq", "type": "long"},
              {"name": "duration_ms", "type": "double"}, {"name": "ok", "type": "boolean"},
              {"name": "http", "type": {"type": "record", "name": "Http", "fields": [
                {"name": "method", "type": "string"}, {"name": "path", "type": "string"},
                {"name": "status", "type": "int"}, {"name": "bytes_in", "type": "long"},
                {"name": "bytes_out", "type": "long"}, {"name": "latency_ms", "type": "double"},
                {"name": "referrer", "type": "string"}, {"name": "user_agent", "type": "string"}]}},
              {"name": "client", "type": {"type": "record", "name": "Client", "fields": [
                {"name": "ip", "type": "string"}, {"name": "country", "type": "string"},
                {"name": "city", "type": "string"}, {"name": "asn", "type": "int"},
                {"name": "device", "type": "string"}, {"name": "os", "type": "string"},
                {"name": "browser", "type": "string"}, {"name": "session", "type": "string"}]}},
              {"name": "user", "type": {"type": "record", "name": "User", "fields": [
                {"name": "id", "type": "string"}, {"name": "plan", "type": "string"},
                {"name": "age", "type": ["null", "int"], "default": null},
                {"name": "tenant", "type": "string"}]}},
              {"name": "tags", "type": {"type": "array", "items": "string"}},
              {"name": "error", "type": ["null", {"type": "record", "name": "Failure", "fields": [
                {"name": "type", "type": "string"}, {"name": "code", "type": "int"},
                {"name": "stack", "type": "string"}]}], "default": null}
            ]}""";

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"};
    private static final String[] METHODS = {"GET", "GET", "POST", "PUT", "DELETE"};
    private static final String[] COUNTRIES = {"DE", "FR", "US", "BR", "JP", "IN", "NG", "AU"};
    private static final String FILLER = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod "
            + "tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation "
            + "ullamco laboris nisi ut aliquip ex ea commodo consequat duis aute irure dolor in reprehenderit in "
            + "voluptate velit esse cillum dolore eu fugiat nulla pariatur excepteur sint occaecat cupidatat non "
            + "proident sunt in culpa qui officia deserunt mollit anim id est laborum";

    private WideLogLines() {
    }

    /** Line {@code i}, in {@code category}: about 1.15 KB, its values varied by {@code i}. */
    static String line(int i, String category) {
        String level = LEVELS[i % LEVELS.length];
        String error = level.equals("ERROR")
                ? "{\"type\": \"java.io.IOException\", \"code\": " + (500 + i % 4) + ", \"stack\": \"at Handler.run("
                        + "Handler.java:" + (i % 300) + ")\"}"
                : "null";
        return "{\"ts\": " + (1_795_168_800_000L + i * 37L) + ", \"level\": \"" + level + "\", \"category\": \""
                + category + "\", \"message\": \"request " + i + " served: " + FILLER.substring(i % 97) + " "
                + FILLER.substring(0, 97 + i % 150) + "\", \"logger\": \"io.example.web.Handler" + i % 12
                + "\", \"thread\": \"http-nio-8080-exec-" + i % 64 + "\", \"trace_id\": \"" + hex(i * 7919L, 32)
                + "\", \"span_id\": \"" + hex(i * 104_729L, 16) + "\", \"host\": \"web-" + i % 16
                + ".eu-west-1.example.internal\", \"pod\": \"web-7d9f8c6b5-" + hex(i % 40, 5)
                + "\", \"namespace\": \"production\", \"env\": \"prod\", \"version\": \"2.14." + i % 9
                + "\", \"seq\": " + i + ", \"duration_ms\": " + (i % 1000) / 7.0 + ", \"ok\": " + (i % 6 != 4)
                + ", \"http\": {\"method\": \"" + METHODS[i % METHODS.length] + "\", \"path\": \"/api/v2/items/"
                + i % 5000 + "/details\", \"status\": " + (i % 6 == 4 ? 500 : 200) + ", \"bytes_in\": "
                + i % 4096 + ", \"bytes_out\": " + i * 13 % 65_536 + ", \"latency_ms\": " + (i % 777) / 3.0
                + ", \"referrer\": \"https://www.example.com/page/" + i % 300
                + "\", \"user_agent\": \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/119.0." + i % 100 + " Safari/537.36\"}, \"client\": {\"ip\": \"10." + i % 256 + "."
                + i / 256 % 256 + "." + i % 251 + "\", \"country\": \"" + COUNTRIES[i % COUNTRIES.length]
                + "\", \"city\": \"city-" + i % 500 + "\", \"asn\": " + (64_512 + i % 1000)
                + ", \"device\": \"desktop\", \"os\": \"Linux\", \"browser\": \"Chrome\", \"session\": \""
                + hex(i * 31L, 24) + "\"}, \"user\": {\"id\": \"user-" + i % 10_000 + "\", \"plan\": \""
                + (i % 3 == 0 ? "pro" : "free") + "\", \"age\": " + (i % 5 == 0 ? "null" : 18 + i % 60)
                + ", \"tenant\": \"tenant-" + i % 50 + "\"}, \"tags\": [\"web\", \"t" + i % 20 + "\", \"r"
                + i % 7 + "\"], \"error\": " + error + "}";
    }

    private static String hex(long value, int digits) {
        StringBuilder s = new StringBuilder(Long.toHexString(value * 0x9E3779B97F4A7C15L));
        while (s.length() < digits) {
            s.append(s);
        }
        return s.substring(0, digits);
    }
}
