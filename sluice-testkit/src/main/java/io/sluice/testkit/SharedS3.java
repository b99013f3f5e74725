package io.sluice.testkit;

import io.sluice.testkit.s3.S3Server;

/** One S3 server per test JVM, started on first use (only tests that need S3 pay for it). Use unique buckets. */
public final class SharedS3 {

    private SharedS3() {
    }

    private static final class Holder {
        static final S3Server SERVER = start();

        private static S3Server start() {
            S3Server server = S3Server.start("shared-s3");
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "shared-s3-close"));
            return server;
        }
    }

    public static S3Server server() {
        return Holder.SERVER;
    }
}
