package io.railmap.matrix;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The core's shape, on its compiled main classes: packages depend one way, in the order the list in
 * {@code io/railmap/matrix/package-info.java} gives (read from the source, so the list and the rule
 * are one), and the core is pure: no I/O, threads or clocks.
 */
class ArchitectureTest {
    private static final String ROOT = "io.railmap.matrix";
    private static final JavaClasses MAIN = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);
    private static final Path PACKAGE_INFO = Path.of("src/main/java/io/railmap/matrix/package-info.java");
    private static final Pattern LINK = Pattern.compile("\\{@link io\\.railmap\\.matrix\\.([a-z]+)}");

    /** @return the package-info's list: one set of package names per {@code <li>}, lowest first */
    static List<Set<String>> levels() throws IOException {
        String text = Files.readString(PACKAGE_INFO);
        String list = text.substring(text.indexOf("<ol>"), text.indexOf("</ol>"));
        List<Set<String>> out = new ArrayList<>();
        for (String item : list.split("<li>")) {
            Set<String> level = new TreeSet<>();
            Matcher m = LINK.matcher(item);
            while (m.find()) {
                level.add(m.group(1));
            }
            if (!level.isEmpty()) {
                out.add(level);
            }
        }
        return out;
    }

    @Test
    void everyPackageHasItsLineInTheOrder() throws IOException {
        Set<String> listed = new TreeSet<>();
        levels().forEach(l -> l.forEach(p -> assertThat(listed.add(p)).as("%s listed twice", p).isTrue()));
        Set<String> actual = MAIN.stream().map(JavaClass::getPackageName).filter(p -> p.startsWith(ROOT + "."))
                .map(p -> p.substring(ROOT.length() + 1).split("\\.")[0]).collect(Collectors.toCollection(TreeSet::new));
        assertThat(listed).as("the packages in package-info's list").isEqualTo(actual);
    }

    /** A package depends on packages of lower lines only: not on one of its own line, nor above. */
    @Test
    void packagesDependOneWay() throws IOException {
        List<Set<String>> levels = levels();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < levels.size(); i++) {
            Set<String> sameOrHigher = new TreeSet<>();
            levels.subList(i, levels.size()).forEach(sameOrHigher::addAll);
            for (String p : levels.get(i)) {
                String[] forbidden = sameOrHigher.stream().filter(q -> !q.equals(p)).map(q -> ROOT + "." + q + "..").toArray(String[]::new);
                if (forbidden.length == 0) {
                    continue;
                }
                EvaluationResult result = noClasses().that().resideInAPackage(ROOT + "." + p + "..")
                        .should().dependOnClassesThat().resideInAnyPackage(forbidden).evaluate(MAIN);
                failures.addAll(result.getFailureReport().getDetails());
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(MAIN);
    }

    /**
     * No I/O: no file ({@code java.io.File*}, {@code RandomAccessFile}, {@code Console},
     * {@code java.nio.file}, {@code java.nio.channels}), no network ({@code java.net} sockets, URLs
     * and HTTP), no process ({@code ProcessBuilder}, {@code Runtime}), no standard streams or
     * environment ({@code System.in/out/err}, {@code getenv}, {@code exit}).
     *
     * <p>Allowed: {@code java.io.StringWriter} and {@code UncheckedIOException} (writing text to
     * memory: the SVG and DOT writers, {@code JsonText}); {@code InetAddress} and its subclasses,
     * because {@code IpAddresses} and {@code HostfileRanks} parse IP literals with it, calling
     * {@code getByName} only on text that already matched a literal's pattern, which it parses
     * without a lookup. Those two classes are the only callers of a lookup method; a reverse lookup
     * ({@code getHostName}, {@code getCanonicalHostName}, {@code getLocalHost}) is called nowhere.
     */
    @Test
    void noIo() {
        Set<String> net = Set.of("java.net.InetAddress", "java.net.Inet4Address", "java.net.Inet6Address", "java.net.UnknownHostException");
        DescribedPredicate<JavaClass> io = DescribedPredicate.describe("are files, sockets or processes", c ->
                c.getPackageName().equals("java.io") && (c.getSimpleName().startsWith("File") || c.getSimpleName().equals("RandomAccessFile")
                        || c.getSimpleName().equals("Console"))
                        || c.getPackageName().startsWith("java.nio.file") || c.getPackageName().startsWith("java.nio.channels")
                        || c.getPackageName().startsWith("java.net") && !net.contains(c.getName())
                        || c.getName().equals("java.lang.ProcessBuilder") || c.getName().equals("java.lang.Runtime"));
        check(noClasses().should().dependOnClassesThat(io));
        check(noClasses().should().accessFieldWhere(DescribedPredicate.describe("System.in/out/err", (JavaFieldAccess a) ->
                a.getTargetOwner().getName().equals("java.lang.System"))));
        check(noClasses().should().callMethodWhere(calls("java.lang.System", "getenv", "exit", "getProperty", "getProperties")));
        check(noClasses().that().doNotHaveFullyQualifiedName(ROOT + ".model.IpAddresses")
                .and().doNotHaveFullyQualifiedName(ROOT + ".check.HostfileRanks")
                .should().callMethodWhere(calls("java.net.InetAddress", "getByName", "getAllByName")));
        check(noClasses().should().callMethodWhere(calls("java.net.InetAddress", "getHostName", "getCanonicalHostName", "getLocalHost")));
    }

    /**
     * No threads: no {@code Thread}, {@code Timer}, nothing of {@code java.util.concurrent} (executors,
     * futures, {@code CompletableFuture}, locks; the core runs on its caller's thread, so it needs no
     * concurrent collection either), no parallel stream. Allowed: nothing.
     */
    @Test
    void noThreads() {
        check(noClasses().should().dependOnClassesThat(DescribedPredicate.describe("are threads, timers or java.util.concurrent", (JavaClass c) ->
                c.isAssignableTo(Thread.class) || c.getName().equals("java.util.Timer") || c.getPackageName().startsWith("java.util.concurrent"))));
        check(noClasses().should().callMethodWhere(DescribedPredicate.describe("a parallel stream", (JavaMethodCall call) ->
                call.getTargetOwner().getPackageName().startsWith("java.util")
                        && (call.getName().equals("parallelStream") || call.getName().equals("parallel")))));
    }

    /**
     * No clocks: no {@code System.currentTimeMillis/nanoTime}, no {@code java.time.Clock}, no
     * {@code now()} of any {@code java.time} type, no {@code java.util.Date}; and nothing seeded from
     * one ({@code Math.random}, {@code java.util.Random}, {@code UUID.randomUUID}), so the same records
     * give the same output. Allowed: {@code UUID} itself, which records carry (a daemon's incarnation).
     */
    @Test
    void noClocks() {
        check(noClasses().should().callMethodWhere(calls("java.lang.System", "currentTimeMillis", "nanoTime")));
        check(noClasses().should().callMethodWhere(DescribedPredicate.describe("java.time's now()", (JavaMethodCall call) ->
                call.getTargetOwner().getPackageName().startsWith("java.time") && call.getName().equals("now"))));
        check(noClasses().should().dependOnClassesThat(DescribedPredicate.describe("are clocks or random sources", (JavaClass c) ->
                c.getName().equals("java.time.Clock") || c.getName().equals("java.time.InstantSource") || c.getName().equals("java.util.Date")
                        || c.isAssignableTo(java.util.Random.class))));
        check(noClasses().should().callMethodWhere(calls("java.lang.Math", "random")));
        check(noClasses().should().callMethodWhere(calls("java.util.UUID", "randomUUID")));
    }

    private static DescribedPredicate<JavaMethodCall> calls(String owner, String... names) {
        Set<String> set = Set.of(names);
        return DescribedPredicate.describe(owner + "." + String.join("/", names), (JavaMethodCall call) ->
                call.getTargetOwner().getName().equals(owner) && set.contains(call.getName()));
    }

    private static void check(ArchRule rule) {
        rule.check(MAIN);
    }
}
