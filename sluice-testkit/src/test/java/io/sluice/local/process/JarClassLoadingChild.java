package io.sluice.local.process;

/** A child that loads the classes its arguments name (the Kafka clients') and exits: {@link ClassDataArchivesTest}'s. */
public final class JarClassLoadingChild {

    private JarClassLoadingChild() {
    }

    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Class.forName(name);
        }
        System.out.println("LOADED");
    }
}
