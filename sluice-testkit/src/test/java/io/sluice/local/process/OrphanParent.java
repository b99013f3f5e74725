package io.sluice.local.process;

import io.sluice.testkit.TestDirs;

/** A parent JVM for {@link ChildCleanupTest}: starts one idle child, reports its pid, then waits to be killed. */
public final class OrphanParent {

    private OrphanParent() {
    }

    public static void main(String[] args) throws InterruptedException {
        ChildProcess child = ChildJvm.builder("orphan")
                .runtime(ServerRuntime.NONE)
                .jvmOptions(java.util.List.of("-Xmx32m", "-XX:TieredStopAtLevel=1"))
                .mainClass("io.sluice.testkit.child.Idle")
                .workDir(TestDirs.newDir("orphan"))
                .build()
                .start();
        child.awaitLogLine(line -> line.startsWith("SLUICE-READY"), java.time.Duration.ofSeconds(30));
        System.out.println("CHILD " + child.pid());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
