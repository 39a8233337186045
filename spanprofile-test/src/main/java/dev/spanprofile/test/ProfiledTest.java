package dev.spanprofile.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Profiles the requests of a {@code @SpringBootTest} so that its tests can assert on them
 * with {@link SpanProfileAssertions}. The test's application context gets settings suited
 * to tests: every request traced ({@code management.tracing.sampling.probability=1.0}), a
 * short sampling interval so that a request of a few hundred milliseconds has hundreds of
 * samples, and collection on demand rather than every second (a collection drops the
 * events recorded while it runs, see docs/engines.md). Properties given to
 * {@code @SpringBootTest} win over these. Test classes with the same settings share one
 * application context, as Spring's test cache does.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(SpanProfileExtension.class)
public @interface ProfiledTest {

	/**
	 * Time between two samples of one thread ({@code spanprofile.interval}). At 1 ms a
	 * request that burns 100 ms of CPU has about 100 samples; Flight Recorder
	 * ({@code jfr} engine) samples no more often than the JDK allows.
	 */
	String interval() default "1ms";

	/**
	 * What is sampled ({@code spanprofile.event}): {@code cpu}, and {@code alloc} for
	 * {@link ProfileAssert#allocatedBytes()}, {@code lock} for
	 * {@link ProfileAssert#lockWait()}.
	 */
	String[] event() default { "cpu" };

	/**
	 * Bytes between two allocation samples ({@code spanprofile.alloc-interval}, e.g.
	 * {@code 64KB}); empty for the engine's default of 512 KB. Smaller gives a tighter
	 * estimate of a request's bytes.
	 */
	String allocInterval() default "";

	/**
	 * Whether every profile a test reads is written under {@code target/spanprofile} (an
	 * HTML flame graph and collapsed stacks per kind of sample), not only those of failed
	 * or refused assertions. The system property {@code spanprofile.test.report=true}
	 * turns it on for every test.
	 */
	boolean report() default false;

	/**
	 * What a budget that could not decide (too few samples) does to its test: aborts it
	 * (reported as skipped) or fails it. The system property
	 * {@code spanprofile.test.inconclusive=fail} (or {@code skip}) overrides it for every
	 * test. Either way the run ends with one line counting the refused budgets.
	 */
	Inconclusive inconclusive() default Inconclusive.SKIP;

}
