package dev.spanprofile.benchmarks.overhead.pages;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;

@Entity
public class Owner {

	@Id
	@GeneratedValue
	private Integer id;

	private String firstName;

	private String lastName;

	private String address;

	private String city;

	private String telephone;

	@OneToMany(mappedBy = "owner", cascade = CascadeType.ALL)
	@OrderBy("name")
	private List<Pet> pets = new ArrayList<>();

	protected Owner() {
	}

	Owner(String firstName, String lastName, String address, String city, String telephone) {
		this.firstName = firstName;
		this.lastName = lastName;
		this.address = address;
		this.city = city;
		this.telephone = telephone;
	}

	void addPet(Pet pet) {
		this.pets.add(pet);
	}

	public Integer getId() {
		return this.id;
	}

	public String getFirstName() {
		return this.firstName;
	}

	public String getLastName() {
		return this.lastName;
	}

	public String getAddress() {
		return this.address;
	}

	public String getCity() {
		return this.city;
	}

	public String getTelephone() {
		return this.telephone;
	}

	public List<Pet> getPets() {
		return this.pets;
	}

}
