"""The types that both the content package and the engine read: the Ruleset (loaded, layered
content: packs, items and their origins) and the constant values of scripts. They sit below both,
so the loader never imports the engine and the engine never imports the loader."""
