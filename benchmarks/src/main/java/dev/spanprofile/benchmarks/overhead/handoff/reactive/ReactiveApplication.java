package dev.spanprofile.benchmarks.overhead.handoff.reactive;

import dev.spanprofile.benchmarks.overhead.handoff.PropagationSwitch;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * A Spring WebFlux application on Reactor Netty whose requests' work runs after three
 * thread hops, for what Reactor's automatic context propagation costs
 * ({@code spring.reactor.context-propagation=auto}, which the starter turns on in a
 * reactive application that has not set it). Reactive although Spring MVC is on the
 * benchmarks' class path too.
 */
@Import(PropagationSwitch.class)
@SpringBootApplication(excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
public class ReactiveApplication {

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(ReactiveApplication.class);
		application.setWebApplicationType(WebApplicationType.REACTIVE);
		application.run(args);
	}

}
