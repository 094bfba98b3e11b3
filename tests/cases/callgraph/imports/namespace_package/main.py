from plugins.csv_reader import read

read("a,b")
