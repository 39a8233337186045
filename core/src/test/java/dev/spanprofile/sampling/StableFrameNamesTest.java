package dev.spanprofile.sampling;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StableFrameNamesTest {

	@Test
	void lambdasAndHiddenClassesLoseTheirCounterAndAddress() {
		assertThat(StableFrameNames.of("com.shop.PaymentService$$Lambda$1634.0x00007f1ecc5f8838.get"))
			.isEqualTo("com.shop.PaymentService$$Lambda.get");
		assertThat(StableFrameNames
			.of("org.junit.platform.engine.support.hierarchical.NodeTestTask$$Lambda.0x00000000311161c8.execute"))
			.isEqualTo("org.junit.platform.engine.support.hierarchical.NodeTestTask$$Lambda.execute");
		assertThat(StableFrameNames.of("java.lang.invoke.LambdaForm$MH.0x0000000031138800.invoke"))
			.isEqualTo("java.lang.invoke.LambdaForm$MH.invoke");
		assertThat(StableFrameNames.of("java.lang.invoke.LambdaForm$DMH/0x0000000800c03000.invokeVirtual"))
			.isEqualTo("java.lang.invoke.LambdaForm$DMH.invokeVirtual");
	}

	@Test
	void generatedAccessorsProxiesAndExtractedLibrariesLoseTheirNumbers() {
		assertThat(StableFrameNames.of("jdk.internal.reflect.GeneratedMethodAccessor123.invoke"))
			.isEqualTo("jdk.internal.reflect.GeneratedMethodAccessor.invoke");
		assertThat(StableFrameNames.of("jdk.proxy2.$Proxy42.findOwners")).isEqualTo("jdk.proxy2.$Proxy.findOwners");
		assertThat(StableFrameNames.of("libasyncProfiler-5074426373574794542.so.WallClock::signalHandler"))
			.isEqualTo("libasyncProfiler.so.WallClock::signalHandler");
	}

	@Test
	void namesThatAreTheSameEverywhereStayAsTheyAre() {
		for (String name : new String[] { "com.shop.PaymentService.pay", "com.shop.Order$Line.total",
				"org.springframework.aop.framework.CglibAopProxy$DynamicAdvisedInterceptor.intercept",
				"com.shop.OrderService$$SpringCGLIB$$0.place", "libc.so.6.__restore_rt", "[socket read localhost:5432]",
				"java.lang.Long.toHexString" }) {
			assertThat(StableFrameNames.of(name)).isEqualTo(name);
		}
	}

}
