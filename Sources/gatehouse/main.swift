import GatehouseCore
print("gatehouse")
