package dev.spanprofile.test;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * Ties the profile assertions of a running test to its application context's profiler:
 * before each test it notes which requests are already stored, so that
 * {@link SpanProfileAssertions#ofLastRequest()} finds the ones the test made. Registered
 * by {@link ProfiledTest}. The test's thread holds its state, as it holds the test. A
 * test that ends on a refused budget is counted, and failed when
 * {@link ProfiledTest#inconclusive()} says so.
 */
public class SpanProfileExtension implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(SpanProfileExtension.class);

	private static final ThreadLocal<ProfiledRequests> current = new ThreadLocal<>();

	@Override
	public void beforeEach(ExtensionContext context) {
		ApplicationContext applicationContext = SpringExtension.getApplicationContext(context);
		SpanProfiler profiler;
		try {
			profiler = applicationContext.getBean(SpanProfiler.class);
		}
		catch (NoSuchBeanDefinitionException ex) {
			throw new IllegalStateException("@ProfiledTest needs a spanprofile engine in the application context: "
					+ "add spanprofile-spring-boot-starter (spanprofile-spring-boot3-starter on Boot 3.5) and leave "
					+ "spanprofile.enabled on", ex);
		}
		ProfiledTest profiled = TestContextAnnotationUtils.findMergedAnnotation(context.getRequiredTestClass(),
				ProfiledTest.class);
		ProfileFiles files = new ProfileFiles(context.getRequiredTestClass().getName(),
				context.getRequiredTestMethod().getName(), profiled != null && profiled.report());
		current.set(new ProfiledRequests(profiler, files, profileHeader(applicationContext)));
		refusedBudgets(context).testRan();
	}

	/**
	 * The on-demand header as the application takes it, {@code null} when on-demand
	 * profiling is off (a test's own properties turned it off).
	 */
	private static ProfileHeader profileHeader(ApplicationContext applicationContext) {
		Environment environment = applicationContext.getEnvironment();
		String token = environment.getProperty("spanprofile.on-demand.token");
		if (!environment.getProperty("spanprofile.on-demand.enabled", Boolean.class, false) || token == null
				|| token.isBlank()) {
			return null;
		}
		return new ProfileHeader(environment.getProperty("spanprofile.on-demand.header", "X-Spanprofile"), token);
	}

	@Override
	public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
		if (!(thrown instanceof InconclusiveProfileException refusal)) {
			throw thrown;
		}
		ProfiledTest profiled = TestContextAnnotationUtils.findMergedAnnotation(context.getRequiredTestClass(),
				ProfiledTest.class);
		Inconclusive mode = Inconclusive.resolve((profiled != null) ? profiled.inconclusive() : Inconclusive.SKIP);
		refusedBudgets(context).refused(
				context.getRequiredTestClass().getSimpleName() + "." + context.getRequiredTestMethod().getName(), mode);
		if (mode == Inconclusive.FAIL) {
			throw new AssertionFailedError("The budget refused to decide, which fails the test here "
					+ "(@ProfiledTest(inconclusive = FAIL) or -D" + Inconclusive.PROPERTY + "=fail): "
					+ refusal.getMessage(), refusal);
		}
		throw refusal;
	}

	@Override
	public void afterEach(ExtensionContext context) {
		current.remove();
	}

	/** The tally of the whole run, told when it ends. */
	static RefusedBudgets refusedBudgets(ExtensionContext context) {
		return context.getRoot()
			.getStore(NAMESPACE)
			.getOrComputeIfAbsent(RefusedBudgets.class, (key) -> new RefusedBudgets(System.out), RefusedBudgets.class);
	}

	static ProfiledRequests current() {
		ProfiledRequests requests = current.get();
		if (requests == null) {
			throw new IllegalStateException("No profiled test is running on this thread: annotate the test class "
					+ "with @ProfiledTest (and @SpringBootTest), and read profiles from the test's own thread");
		}
		return requests;
	}

}
