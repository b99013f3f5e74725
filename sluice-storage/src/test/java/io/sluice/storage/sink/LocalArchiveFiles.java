package io.sluice.storage.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.storage.codec.Codec;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Reads back what an archive made visible under a local root: JSON Lines, zstd. For tests. */
public final class LocalArchiveFiles {

    private static final ObjectMapper JSON = new ObjectMapper();

    private LocalArchiveFiles() {
    }

    /**
     * "partition@offset" → how many visible lines hold it. Only the visible tree is walked: {@code _sluice/} changes
     * under a running sink.
     */
    public static Map<String, Integer> offsets(Path root) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        for (Path f : files(root)) {
            for (JsonNode row : rows(f)) {
                counts.merge(row.get("kafka_partition").asInt() + "@" + row.get("kafka_offset").asLong(), 1,
                        Integer::sum);
            }
        }
        return counts;
    }

    public static List<Path> files(Path root) throws Exception {
        List<Path> files = new ArrayList<>();
        if (!Files.exists(root)) {
            return files;
        }
        try (Stream<Path> tops = Files.list(root)) {
            for (Path top : tops.filter(p -> !p.getFileName().toString().equals("_sluice")).toList()) {
                try (Stream<Path> walk = Files.walk(top)) {
                    walk.filter(p -> p.toString().endsWith(".jsonl.zst")).forEach(files::add);
                }
            }
        }
        return files;
    }

    public static List<JsonNode> rows(Path file) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        try (InputStream in = Codec.ZSTD.decompress(Files.newInputStream(file));
             BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                rows.add(JSON.readTree(line));
            }
        }
        return rows;
    }
}
